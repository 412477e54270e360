import { z } from 'zod';
import { email, opaqueToken, password, tfaCode, username } from './auth';

/** The first-run page's link: `/setup/<token>`. */
export const setupTokenInput = z.object({ token: opaqueToken }).strict();

/**
 * What the first-run link leads to: `open` (with the authenticator secret to enrol), or
 * why not: an operator exists (`done`), the hour is over (`expired`), or no such link.
 */
export const setupStatusOutput = z.discriminatedUnion('state', [
  z.object({ state: z.literal('open'), secret: z.string() }),
  z.object({ state: z.enum(['done', 'expired', 'invalid']), message: z.string() }),
]);
export type SetupStatus = z.infer<typeof setupStatusOutput>;

/** The first operator account: the registration's fields and a code from the enrolled authenticator. */
export const setupInput = z.object({ token: opaqueToken, username, email, password, code: tfaCode }).strict();

export const setupOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  auth_token: z.string(),
  qr_key: z.string(),
});
