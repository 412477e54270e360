import {
  useId,
  useState,
  type ComponentPropsWithRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'>;

/** What every field takes (useForm's `field()` gives the first four), whatever its input. */
type Bound = {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
};

export type FieldProps = InputProps & Bound;

/** What the control inside a field takes: its id, and its error or hint tied to it for screen readers. */
type ControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };

/** The frame every field shares: the label, the control, and its error or hint under it. */
function FieldFrame({
  label,
  error,
  hint,
  control,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  control: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {control({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error || hint ? `${id}-note` : undefined,
      })}
      <FieldNote id={`${id}-note`} error={error} hint={hint} />
    </div>
  );
}

/** A labelled input with its hint and error tied to it for screen readers. */
export function TextField({ label, value, onValueChange, error, hint, type = 'text', ...rest }: FieldProps) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => (
        <input {...a11y} type={type} value={value} onChange={(e) => onValueChange(e.target.value)} {...rest} />
      )}
    />
  );
}

/** A password input with a show/hide toggle. */
export function PasswordField({ label, value, onValueChange, error, hint, ...rest }: Omit<FieldProps, 'type'>) {
  const [shown, setShown] = useState(false);
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => (
        <div className="password-input">
          <input
            {...a11y}
            type={shown ? 'text' : 'password'}
            value={value}
            onChange={(e) => onValueChange(e.target.value)}
            {...rest}
          />
          <button
            type="button"
            className="password-toggle"
            onClick={() => setShown((s) => !s)}
            aria-pressed={shown}
            aria-controls={a11y.id}
          >
            {shown ? 'Hide' : 'Show'}
            <span className="sr-only"> password</span>
          </button>
        </div>
      )}
    />
  );
}

// With its ref: a form puts the focus back into its message box.
type TextAreaProps = Omit<ComponentPropsWithRef<'textarea'>, 'id' | 'value' | 'onChange'>;

/** A labelled textarea (a message, a PEM key), its hint and error tied to it like TextField's. */
export function TextAreaField({ label, value, onValueChange, error, hint, ...rest }: TextAreaProps & Bound) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => <textarea {...a11y} value={value} onChange={(e) => onValueChange(e.target.value)} {...rest} />}
    />
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'>;

/** A labelled select over `options` (value and text), with its error like TextField's. */
export function SelectField({
  label,
  value,
  onValueChange,
  error,
  hint,
  options,
  ...rest
}: SelectProps & Bound & { options: readonly { value: string; text: string }[] }) {
  return (
    <FieldFrame
      label={label}
      error={error}
      hint={hint}
      control={(a11y) => (
        <select {...a11y} value={value} onChange={(e) => onValueChange(e.target.value)} {...rest}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** A six-digit authenticator code. */
export function CodeField(props: Omit<FieldProps, 'type' | 'inputMode'>) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      placeholder="123456"
      {...props}
      onValueChange={(v) => props.onValueChange(v.replace(/\D/g, ''))}
    />
  );
}

function FieldNote({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={id} className="field-error">
        {error}
      </p>
    );
  }
  if (hint) {
    return (
      <p id={id} className="field-hint">
        {hint}
      </p>
    );
  }
  return null;
}
