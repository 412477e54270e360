import { z } from 'zod';
import { parseAllowList } from '../ip-list';
import { isPlainText } from '../plain-text';

/**
 * Spec: "description required, max 48 characters". Plain text only: the name is quoted in
 * the "New API key" mail, which cannot be turned off (src/shared/plain-text.ts).
 */
export const apiKeyName = z
  .string({ error: 'Please enter a description.' })
  .trim()
  .min(1, 'Please enter a description.')
  .max(48, 'The description can be at most 48 characters.')
  .refine(isPlainText, 'The description cannot contain line breaks, tabs or invisible characters.');

/** Comma-separated IPv4/IPv6 addresses or CIDR ranges; empty for any address. */
export const apiKeyAllowed = z
  .string({ error: 'must be a comma-separated list of IP addresses' })
  .max(4000, 'at most 4000 characters')
  .superRefine((s, ctx) => {
    const r = parseAllowList(s);
    if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
  });

/**
 * The key as lists show it and as save/delete name it: its public prefix "nk_xxxxxxxx"
 * (the whole key is accepted too). src/server/apikeys/README.md.
 */
export const apiKeyRef = z
  .string({ error: 'Please give the key (auth_key).' })
  .trim()
  .regex(/^nk_[\w-]{8}(_[\w-]{43})?$/, 'auth_key must be a key or its prefix as listed (nk_ and 8 characters).');

export const createApiKeyInput = z
  .object({
    name: apiKeyName,
    allowed: apiKeyAllowed.default(''),
    read_only: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

export const saveApiKeyInput = z
  .object({
    auth_key: apiKeyRef,
    name: apiKeyName,
    allowed: apiKeyAllowed.default(''),
    read_only: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();
export type SaveApiKeyInput = z.input<typeof saveApiKeyInput>;

export const deleteApiKeyInput = z.object({ auth_key: apiKeyRef }).strict();

/** One key in the list; `auth_key` is the prefix, never the whole key. */
export const apiKeyRow = z.object({
  name: z.string(),
  auth_key: z.string(),
  allowed: z.string(),
  read_only: z.boolean(),
  created_at: z.number(),
  last_used_at: z.number().nullable(),
  last_used_ip: z.string().nullable(),
});
export type ApiKeyRow = z.infer<typeof apiKeyRow>;

export const getApiKeysOutput = z.object({ success: z.literal(true), keys: z.array(apiKeyRow) });

/** The only answer that holds the whole key (`key`), shown once. */
export const createApiKeyOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  key: z.string(),
  auth_key: z.string(),
});
export type CreateApiKeyOutput = z.infer<typeof createApiKeyOutput>;
