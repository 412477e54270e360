import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

export type Checked<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * Runs a shared schema over form values and keeps the first message per field, so
 * the client refuses exactly what the server would refuse, with the same words.
 */
export function check<S extends z.ZodType>(schema: S, values: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * Shared field rules say "must be at least 6 characters"; under a field we show
 * "Password must be at least 6 characters". Whole sentences stay as they are.
 */
export function withLabel(label: string, message: string | undefined): string | undefined {
  if (!message) return undefined;
  return /^[a-z]/.test(message) ? `${label} ${message}` : message;
}
