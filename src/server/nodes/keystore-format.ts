import * as v from 'valibot';

/**
 * The shape of an EIP-2335 keystore (version 4) as this platform accepts it, and the
 * cost bounds of its key derivation. Hex values are read without a 0x prefix, as the EIP
 * writes them (a 0x is tolerated). Bounds: the standard parameters (scrypt n = 2^18, r = 8,
 * p = 1; pbkdf2 c = 2^18) are the most we spend on one file; a keystore asking for more
 * would let one upload hold a CPU or a quarter GiB of memory per step up.
 */
export const MAX_SCRYPT_N = 2 ** 18;
export const MAX_SCRYPT_R = 8;
export const MAX_SCRYPT_P = 1;
export const MAX_PBKDF2_C = 2 ** 18;

const hex = (what: string, bytes?: { min: number; max: number }) =>
  v.pipe(
    v.string(),
    v.transform((s) => s.replace(/^0x/i, '').toLowerCase()),
    v.regex(/^([0-9a-f]{2})*$/, `${what} must be hex`),
    v.check(
      (s) => !bytes || (s.length / 2 >= bytes.min && s.length / 2 <= bytes.max),
      () =>
        bytes!.min === bytes!.max
          ? `${what} must be ${bytes!.min} bytes`
          : `${what} must be ${bytes!.min}-${bytes!.max} bytes`,
    ),
  );

const int = (what: string) =>
  v.pipe(
    v.number(`${what} must be a number`),
    v.integer(`${what} must be a whole number`),
    v.minValue(1, `${what} must be at least 1`),
  );

const Scrypt = v.object({
  function: v.literal('scrypt'),
  params: v.object({
    dklen: v.literal(32, 'kdf dklen must be 32'),
    n: int('scrypt n'),
    r: int('scrypt r'),
    p: int('scrypt p'),
    salt: hex('kdf salt', { min: 0, max: 256 }),
  }),
  message: v.literal('', 'kdf message must be empty'),
});

const Pbkdf2 = v.object({
  function: v.literal('pbkdf2'),
  params: v.object({
    dklen: v.literal(32, 'kdf dklen must be 32'),
    c: int('pbkdf2 c'),
    prf: v.literal('hmac-sha256', 'pbkdf2 prf must be hmac-sha256'),
    salt: hex('kdf salt', { min: 0, max: 256 }),
  }),
  message: v.literal('', 'kdf message must be empty'),
});

export const Eip2335Keystore = v.object({
  version: v.literal(4, 'version must be 4'),
  uuid: v.pipe(
    v.string('uuid must be text'),
    v.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'uuid must be a UUID'),
  ),
  path: v.pipe(v.string('path must be text'), v.maxLength(256, 'path is too long')),
  pubkey: hex('pubkey', { min: 48, max: 48 }),
  description: v.optional(v.string('description must be text')),
  crypto: v.object({
    kdf: v.variant('function', [Scrypt, Pbkdf2], 'kdf function must be scrypt or pbkdf2'),
    checksum: v.object({
      function: v.literal('sha256', 'checksum function must be sha256'),
      params: v.object({}),
      message: hex('checksum message', { min: 32, max: 32 }),
    }),
    cipher: v.object({
      function: v.literal('aes-128-ctr', 'cipher function must be aes-128-ctr'),
      params: v.object({ iv: hex('cipher iv', { min: 16, max: 16 }) }),
      // A validator's secret key is 32 bytes, so is its ciphertext (CTR keeps the length).
      message: hex('cipher message', { min: 32, max: 32 }),
    }),
  }),
});

export type Eip2335Keystore = v.InferOutput<typeof Eip2335Keystore>;
export type KdfModule = Eip2335Keystore['crypto']['kdf'];

/** Why the KDF parameters are refused, or null when they are within our bounds. */
export function kdfCostError(kdf: KdfModule): string | null {
  if (kdf.function === 'pbkdf2') {
    return kdf.params.c > MAX_PBKDF2_C ? `pbkdf2 c must be at most ${MAX_PBKDF2_C} (got ${kdf.params.c})` : null;
  }
  const { n, r, p } = kdf.params;
  if (n < 2 || (n & (n - 1)) !== 0) return `scrypt n must be a power of 2 (got ${n})`;
  if (n > MAX_SCRYPT_N) return `scrypt n must be at most ${MAX_SCRYPT_N} (got ${n})`;
  if (r > MAX_SCRYPT_R) return `scrypt r must be at most ${MAX_SCRYPT_R} (got ${r})`;
  if (p > MAX_SCRYPT_P) return `scrypt p must be at most ${MAX_SCRYPT_P} (got ${p})`;
  return null;
}

/** The first problem of an input that is not a keystore, as "where: what". */
export function keystoreShapeError(
  input: unknown,
): { ok: true; keystore: Eip2335Keystore } | { ok: false; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, message: 'the file does not hold a JSON object' };
  const parsed = v.safeParse(Eip2335Keystore, input);
  if (parsed.success) return { ok: true, keystore: parsed.output };
  const issue = parsed.issues[0];
  const where = v.getDotPath(issue);
  const missing = issue.input === undefined && issue.kind === 'schema';
  return {
    ok: false,
    message:
      missing && where
        ? `${where} is missing`
        : issue.message.startsWith('Invalid') && where
          ? `${where} is invalid`
          : issue.message,
  };
}
