import { sql } from 'kysely';
import { create } from '@chainsafe/bls-keystore';
import { bls12_381 } from '@noble/curves/bls12-381';
import type { TestServer } from '../support/server';

/** Real HTTP calls to a test server: the REST route and the tRPC procedure behind it. */
export function clients(s: () => TestServer) {
  const rest = async (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => {
    const res = await fetch(s().url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const trpc = async (procedure: string, token: string, input: unknown) => {
    const res = await fetch(`${s().url}/trpc/${procedure}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(input) });
    const body = (await res.json()) as any;
    return { status: res.status, body, data: body.result?.data, message: body.error?.message as string | undefined, field: body.error?.data?.field as string | undefined };
  };
  const multipart = async (token: string, form: FormData) => {
    const res = await fetch(`${s().url}/api/deploy_server`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { rest, trpc, multipart };
}

export async function counts(s: TestServer) {
  const one = async (table: 'nodes' | 'placements' | 'events') => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(s.deps.db)).rows[0].n);
  return { nodes: await one('nodes'), placements: await one('placements') };
}

export const FEE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const randomHex = (n: number) => hex(crypto.getRandomValues(new Uint8Array(n)));
export const smallScrypt = () => ({ function: 'scrypt' as const, params: { dklen: 32, n: 2 ** 14, r: 8, p: 1, salt: randomHex(32) } });
export const smallPbkdf2 = () => ({ function: 'pbkdf2' as const, params: { dklen: 32, c: 2 ** 14, prf: 'hmac-sha256' as const, salt: randomHex(32) } });

/** An EIP-2335 keystore made by @chainsafe/bls-keystore (an implementation independent of ours); kdf undefined: the standard scrypt. */
export async function makeKeystore(password: string, kdf?: ReturnType<typeof smallScrypt> | ReturnType<typeof smallPbkdf2>) {
  const secret = bls12_381.utils.randomSecretKey();
  const pk = bls12_381.longSignatures.getPublicKey(secret).toBytes(true);
  const ks = await create(password, secret, pk, 'm/12381/3600/0/0/0', null, kdf);
  return { text: JSON.stringify(ks), secret: hex(secret), pubkey: `0x${hex(pk)}` };
}

export function validatorForm(opts: { files: Array<[string, string]>; password?: string | null; fee?: string | null; currency?: string }) {
  const f = new FormData();
  f.set('currency', opts.currency ?? 'eth');
  f.set('package', 'dedicated');
  if (opts.password !== null) f.set('password', opts.password ?? 'keystore pass 1');
  if (opts.fee !== null) f.set('fee_recipient', opts.fee ?? FEE);
  for (const [name, content] of opts.files) f.append('keystores', new Blob([content], { type: 'application/json' }), name);
  return f;
}

/** Every byte the database keeps (main file and write-ahead log), as latin1 text to search. */
export async function databaseBytes(s: TestServer): Promise<string> {
  const fs = await import('node:fs');
  return [s.config.dbFile, `${s.config.dbFile}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString('latin1'))
    .join('\n');
}
