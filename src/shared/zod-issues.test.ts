import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeZodIssues } from './zod-issues';

// The words a refused value is said in, on the server and under a form's field alike.
describe('describeZodIssues', () => {
  const schema = z.object({ amount: z.coerce.number().positive(), name: z.string(), count: z.number().int() });
  const said = (input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? null : describeZodIssues(r.error.issues);
  };

  it('says a number field that is not a number in plain words, not zod’s "received NaN"', () => {
    expect(said({ amount: 'abc', name: 'x', count: 1 })).toBe('amount: must be a number');
    expect(said({ amount: 5, name: 7, count: 1 })).toBe('name: must be text');
  });

  it('says a missing field is required', () => {
    expect(said({ amount: 5, name: 'x' })).toBe('count: is required');
  });

  it('says a whole number as such, and keeps the schema’s other messages', () => {
    expect(said({ amount: -1, name: 'x', count: 1.5 })).toBe(
      'amount: Too small: expected number to be >0; count: must be a whole number',
    );
  });
});
