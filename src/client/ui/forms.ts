import type { z } from 'zod';
import { describeZodIssues } from '../../shared/zod-issues';

export type FieldErrors = Record<string, string>;

export type Checked<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      /** The first message per field. */
      errors: FieldErrors;
      /** Every refusal in the server's words ("banner.link: must be …"). */
      message: string;
      /** The refusals no field can show (a hidden value's), in the server's words; null when there are none. */
      unplaced: string | null;
    };

/**
 * Runs a shared schema over form values and keeps the first message per field, so
 * the client refuses exactly what the server would refuse, with the same words.
 *
 * `fields`: the form's field names. A refusal belongs to the first segment of its path
 * that names one (`banner.link` goes under the field `link`); one that names none is
 * `unplaced`. Without `fields`, every refusal belongs to its path's first segment.
 */
export function check<S extends z.ZodType>(
  schema: S,
  values: unknown,
  fields?: readonly string[],
): Checked<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  const unplaced: z.core.$ZodIssue[] = [];
  for (const issue of result.error.issues) {
    const field = fields
      ? issue.path.find((p): p is string => typeof p === 'string' && fields.includes(p))
      : String(issue.path[0] ?? '');
    if (field === undefined) unplaced.push(issue);
    else errors[field] ??= issue.message;
  }
  return {
    ok: false,
    errors,
    message: describeZodIssues(result.error.issues),
    unplaced: unplaced.length ? describeZodIssues(unplaced) : null,
  };
}

/**
 * Shared field rules say "must be at least 6 characters"; under a field we show
 * "Password must be at least 6 characters". Whole sentences stay as they are.
 */
export function withLabel(label: string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}
