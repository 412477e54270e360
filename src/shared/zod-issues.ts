import type { z } from 'zod';

/**
 * "username: must be at least 3 characters" from zod 4's issues: the words the server
 * answers a refused input with, and the ones a form shows when it refuses it first.
 */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      const field = i.path.join('.');
      if (i.code === 'unrecognized_keys') return `unknown field${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}`;
      return field ? `${field}: ${i.message}` : i.message;
    })
    .join('; ');
}
