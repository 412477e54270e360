import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { errorField, errorMessage, serverFieldErrors } from '../app/errors';
import { check, withLabel, type FieldErrors } from './forms';

type Values = Record<string, string>;

export type FormOptions<V extends Values, S extends z.ZodType, R> = {
  /** The shared schema the server checks too, so the client refuses exactly what it would. */
  schema: S;
  initial: V;
  /** The schema's input made from the fields (hidden values, fixed flags); the fields as they are when absent. */
  toInput?: (values: V) => unknown;
  /**
   * Sends the checked data. A thrown error becomes the error alert and, for zod's field
   * errors, messages under the fields. `input` is what passed the check, as the server
   * takes it: send it instead of `data` when the schema transforms (a dollar text to micros).
   */
  submit: (data: z.output<S>, input: z.input<S>) => Promise<R>;
  /** The success alert's text; the server's `message` by default, none when this returns null. */
  successMessage?: (result: R) => string | null;
  /** After a success (e.g. clear the fields or leave the page); `values` as they were sent. */
  onSuccess?: (result: R, form: FormState<V>) => void;
  /** After a failure (e.g. start a two-step login over). */
  onError?: (err: unknown, form: FormState<V>) => void;
  /**
   * Where the server's refusal is said instead of the error alert (a toast, for a form whose
   * failure is the payment provider's, not the customer's input). The alert keeps the client
   * check's refusals; server field messages still go under their fields.
   */
  sayServerError?: (message: string) => void;
  /**
   * A refusal by the client check is also said in the error alert, in the words the server
   * would answer ("version: must be …"), as well as under its field. For forms whose
   * inputs have no room for a message (a table row's) and the console's, whose operators
   * read one line. Without it the alert says only what no field can show.
   */
  alertInvalid?: boolean;
  /**
   * The fields' visible labels, for `alertInvalid`'s words: "Search nodes must be at most
   * 100 characters", not the parameter's name ("q: …").
   */
  labels?: Partial<Record<keyof V & string, string>>;
};

type FormState<V extends Values> = { values: V; setValues: (v: V) => void };

/** What a field component takes: spread it, `<TextField {...form.field('email', 'Email')} />`. */
export type FieldBinding = { label: string; value: string; onValueChange: (value: string) => void; error?: string };

export type Form<V extends Values> = {
  values: V;
  setValues: (v: V) => void;
  field: (name: keyof V & string, label: string) => FieldBinding;
  errors: FieldErrors;
  /** The one error alert's text (the server's message or "cannot reach the server"). */
  error: string | null;
  /** The one success alert's text. */
  success: string | null;
  pending: boolean;
  onSubmit: (e?: FormEvent) => Promise<void>;
};

/**
 * A form over a shared zod schema: field values, the client check (same schema, same
 * words as the server), the server's per-field messages under their fields, and one
 * error and one success message for the whole form. A second submit while one is in
 * flight is ignored. A refusal the client check cannot put under a field (a hidden
 * value's, as `toInput` adds) goes to the error alert, so no refusal is silent.
 */
export function useForm<V extends Values, S extends z.ZodType, R>(opts: FormOptions<V, S, R>): Form<V> {
  const [values, setValues] = useState<V>(opts.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const inFlight = useRef(false);
  const latest = useRef(opts);
  latest.current = opts;

  /** The error alert says the client check's refusal (it goes with the fields' messages). */
  const alertFromCheck = useRef(false);

  // An edited field's message no longer describes it: it goes until the next submit checks
  // again ("abc" then "10" left "must be a dollar amount" under 10), with the check's alert.
  const setField = useCallback((name: keyof V, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      if (!(name in e)) return e;
      const { [name as string]: _, ...rest } = e;
      return rest;
    });
    if (alertFromCheck.current) {
      alertFromCheck.current = false;
      setError(null);
    }
  }, []);

  const field = (name: keyof V & string, label: string): FieldBinding => ({
    label,
    value: values[name] ?? '',
    onValueChange: (value) => setField(name, value),
    error: withLabel(label, errors[name]),
  });

  async function onSubmit(e?: FormEvent) {
    e?.preventDefault();
    if (inFlight.current) return;
    const o = latest.current;
    setError(null);
    setSuccess(null);
    const input: unknown = o.toInput ? o.toInput(values) : values;
    const checked = check(o.schema, input, Object.keys(values));
    setErrors(checked.ok ? {} : checked.errors);
    alertFromCheck.current = false;
    if (!checked.ok) {
      const alert = o.alertInvalid
        ? o.labels
          ? labelled(checked.errors, o.labels)
          : checked.message
        : checked.unplaced;
      alertFromCheck.current = !!alert;
      setError(alert);
      return;
    }
    inFlight.current = true;
    setPending(true);
    try {
      const result = await o.submit(checked.data, input as z.input<S>);
      const message = o.successMessage ? o.successMessage(result) : defaultMessage(result);
      setSuccess(message);
      o.onSuccess?.(result, { values, setValues });
    } catch (err) {
      const message = errorMessage(err);
      const fieldErrors = serverFieldErrors(err);
      // A domain refusal that names its field ("url", "code") is said under that field too.
      const named = errorField(err);
      if (named && named in values) fieldErrors[named] ??= message;
      if (o.sayServerError) o.sayServerError(message);
      else setError(message);
      setErrors(fieldErrors);
      o.onError?.(err, { values, setValues });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  return { values, setValues, field, errors, error, success, pending, onSubmit };
}

/** Each field's first refusal under its visible label, one sentence after another. */
function labelled(errors: Record<string, string>, labels: Record<string, string | undefined>): string {
  return Object.entries(errors)
    .map(([field, message]) => withLabel(labels[field] ?? field, message))
    .join('; ');
}

function defaultMessage(result: unknown): string | null {
  if (result && typeof result === 'object' && 'message' in result && typeof result.message === 'string')
    return result.message;
  return null;
}
