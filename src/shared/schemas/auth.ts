import { z } from 'zod';

// Field rules are shared by the server's procedures and the client's forms.
export const username = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, _ and -');

export const email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .email('must be a valid email address');

export const password = z.string().min(6, 'must be at least 6 characters').max(128, 'must be at most 128 characters');

/** A TOTP code: six digits, sent as a string or a number by older scripts. */
export const tfaCode = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^\d{6}$/, 'must be a 6-digit code'));

/** Opaque tokens we mint are base64url; anything longer than this is not ours. */
export const opaqueToken = z.string().trim().min(1, 'is required').max(200, 'is too long');

export const loginInput = z
  .object({
    username: z.string().trim().min(1, 'is required').max(254, 'is too long'),
    password: z.string().min(1, 'is required').max(128, 'is too long'),
    tfa: tfaCode.optional(),
    /** The `device_token` of this device's last login, if it kept one: its own attempt allowance. */
    device: z.string().max(200, 'is too long').optional(),
  })
  .strict();
export type LoginInput = z.input<typeof loginInput>;

export const loginOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  tfa_authenticated: z.boolean(),
  auth_token: z.string().optional(),
  qr_key: z.string().optional(),
  /** Keep it and send it back as `device` on the next login from this device. */
  device_token: z.string().optional(),
});
export type LoginOutput = z.infer<typeof loginOutput>;

export const registerInput = z
  .object({
    username,
    email,
    password,
    referrer: z.string().trim().max(64, 'is too long').optional().nullable(),
  })
  .strict();
export type RegisterInput = z.input<typeof registerInput>;

export const recoverInput = z.object({ email }).strict();
export const resetInput = z.object({ token: opaqueToken, password }).strict();
export const checkResetTokenInput = z.object({ token: opaqueToken }).strict();
export const verifyInput = z.object({ hash: opaqueToken }).strict();

export const changePasswordInput = z
  .object({
    current_password: z.string().min(1, 'is required').max(128, 'is too long'),
    new_password: password,
  })
  .strict();

export const updateTfaInput = z.object({ enable: z.boolean(), code: tfaCode }).strict();

export const tfaInfo = z.object({ enabled: z.boolean(), secret: z.string() });
export type TfaInfo = z.infer<typeof tfaInfo>;

export const visitedInput = z.object({ fullPath: z.string().min(1, 'is required').max(2048, 'is too long') }).strict();

export const profileAlert = z.object({ bg: z.string(), text: z.string(), link: z.string() });

export const profile = z.object({
  user_id: z.number().int(),
  username: z.string(),
  /** USD with two decimals for display; exact value lives in the ledger. */
  balance: z.number(),
  email: z.string(),
  verified: z.boolean(),
  created_at: z.string(),
  stripe_public_key: z.string(),
  room_id: z.string(),
  qr_url: z.string(),
  alert: profileAlert.nullable(),
});
export type Profile = z.infer<typeof profile>;

export const commonInfoOutput = z.object({
  success: z.literal(true),
  info: profile,
  maintenance: z.boolean(),
});
export type CommonInfo = z.infer<typeof commonInfoOutput>;

/** Where customers get help: the operator's SUPPORT_EMAIL ('' when unset) and COMMUNITY_LINKS. */
export const supportInfo = z.object({
  email: z.string(),
  community: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type SupportInfo = z.infer<typeof supportInfo>;

export const statusOutput = z.object({ success: z.literal(true), maintenance: z.boolean(), support: supportInfo });

// Client-only form shapes built on the same field rules.
export const registerForm = registerInput
  .extend({ confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: 'Passwords do not match', path: ['confirm'] });

export const changePasswordForm = changePasswordInput
  .extend({ confirm: z.string().min(1, 'is required') })
  .refine((v) => v.new_password === v.confirm, {
    message: 'Please make sure your passwords match.',
    path: ['confirm'],
  });

export const resetForm = z
  .object({ password, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: 'Passwords do not match', path: ['confirm'] });
