import { z } from 'zod';

/*
 * zod's own words for a value of the wrong type ("Invalid input: expected number, received
 * NaN") are a programmer's. Every schema the server and the client check is read in these
 * instead, once for both (this module is loaded by the server's procedures and the forms).
 */
const TYPE_WORDS: Record<string, string> = {
  number: 'must be a number',
  int: 'must be a whole number',
  bigint: 'must be a whole number',
  string: 'must be text',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
  date: 'must be a date',
};
z.config({
  customError: (iss) => {
    if (iss.code !== 'invalid_type') return undefined;
    if (iss.input === undefined) return 'is required';
    return TYPE_WORDS[iss.expected] ?? undefined;
  },
});

/**
 * "username: must be at least 3 characters" from zod 4's issues: the words the server
 * answers a refused input with, and the ones a form shows when it refuses it first.
 */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      const field = i.path.join('.');
      if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}`;
      // The whole input of the wrong kind (a list, a number): a script sent the wrong body.
      if (!field && i.code === 'invalid_type' && i.expected === 'object') return 'Send a JSON object.';
      return field ? `${field}: ${i.message}` : i.message;
    })
    .join('; ');
}
