import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { snapshot } from '../support/db-snapshot';
import { makeKeystore, smallPbkdf2, validatorForm, FEE } from '../deploy/support';
import { startTestServer, stopTestServer, type TestServer } from '../support/server';
import { fundedUser, type FreshUser } from '../support/users';

// Attack: deploy payloads carrying fields foreign to the coin's family, oversized and
// duplicated fields, prototype-pollution keys, over JSON, tRPC and multipart. Each must be
// refused with a clear 400 (the field named where there is one) and write nothing.

let s: TestServer;
let u: FreshUser;
beforeAll(async () => {
  s = await startTestServer();
  u = await fundedUser(s.deps);
});
afterAll(() => stopTestServer(s));

const raw = async (body: string, type = 'application/json') => {
  const r = await fetch(`${s.url}/api/deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.token}`, 'content-type': type },
    body,
  });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { text };
  }
  return { status: r.status, body: json };
};
/** node:http, reading the answer even when the server answers before the body is all sent (413). */
const rawHttp = (body: string) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const url = new URL(`${s.url}/api/deploy_server`);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${u.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    req.end(body);
  });
const trpc = async (input: string) => {
  const r = await fetch(`${s.url}/trpc/deploy.deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
    body: input,
  });
  return { status: r.status, body: (await r.json()) as any };
};
const multipart = async (form: FormData) => {
  const r = await fetch(`${s.url}/api/deploy_server`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.token}` },
    body: form,
  });
  return { status: r.status, body: (await r.json()) as any };
};

const txid = `${'ab'.repeat(32)}-0`;

/** Runs `send`, expects a clear refusal (status 4xx, success false, a message) and an unchanged database. */
async function refused(what: string, send: () => Promise<{ status: number; body: any }>, status = 400) {
  const before = await snapshot(s.deps.db);
  const r = await send();
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(status);
  const message = r.body.message ?? r.body.error?.message;
  expect(typeof message, `${what}: ${JSON.stringify(r.body)}`).toBe('string');
  expect(message.length, what).toBeGreaterThan(5);
  expect(message.length, what).toBeLessThan(300);
  expect(r.body.success ?? false, what).toBe(false);
  // Not an internal error dressed up: no stack, no "undefined".
  expect(message, what).not.toMatch(/undefined|\bat \w+ \(|TypeError|Cannot read/);
  expect(await snapshot(s.deps.db), what).toBe(before);
  return r;
}

it('JSON: fields foreign to the family are refused by name, nothing written', async () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['classic with monero_secret', { currency: 'pivx', txid, monero_secret: 'ab'.repeat(32) }, 'monero_secret'],
    ['classic with blsKey', { currency: 'pivx', txid, blsKey: 'ab'.repeat(32) }, 'blsKey'],
    ['classic with neuronCount', { currency: 'pivx', txid, neuronCount: 5 }, 'neuronCount'],
    ['dip003 with rewardAddress', { currency: 'dash', txid, rewardAddress: 'x' }, 'rewardAddress'],
    ['classic with burntxid', { currency: 'pivx', txid, burntxid: 'ab'.repeat(32) }, 'burntxid'],
    ['validators over JSON with a password', { currency: 'eth', password: 'x' }, 'password'],
  ];
  for (const [what, body, field] of cases) {
    const r = await refused(what, () => raw(JSON.stringify(body)));
    expect(JSON.stringify(r.body), what).toContain(field);
  }
});

it('JSON: keys unknown to every family, __proto__ and constructor, are refused; Object.prototype stays clean', async () => {
  const bodies: Array<[string, string]> = [
    ['unknown key', JSON.stringify({ currency: 'pivx', txid, isAdmin: true })],
    ['__proto__ key', `{"currency":"pivx","txid":"${txid}","__proto__":{"polluted":"yes","user_id":1}}`],
    ['constructor key', `{"currency":"pivx","txid":"${txid}","constructor":{"prototype":{"polluted":"yes"}}}`],
    ['nested __proto__ in a field', `{"currency":"pivx","txid":{"__proto__":{"polluted":"yes"}}}`],
    ['prototype key', `{"currency":"pivx","txid":"${txid}","prototype":{"polluted":"yes"}}`],
    ['toString key', `{"currency":"pivx","txid":"${txid}","toString":"x"}`],
  ];
  for (const [what, body] of bodies) await refused(`REST ${what}`, () => raw(body));
  for (const [what, body] of bodies) await refused(`tRPC ${what}`, () => trpc(body));
  expect(({} as any).polluted).toBeUndefined();
});

it('JSON: oversized fields and bodies, wrong types, non-object bodies', async () => {
  const cases: Array<[string, string, number?]> = [
    ['txid of 201 characters', JSON.stringify({ currency: 'pivx', txid: 'a'.repeat(201) })],
    ['currency of 41 characters', JSON.stringify({ currency: 'p'.repeat(41), txid })],
    ['payee of 121 characters', JSON.stringify({ currency: 'dash', txid, payee: '3'.repeat(121) })],
    ['a 1 MiB txid', JSON.stringify({ currency: 'pivx', txid: 'a'.repeat(1 << 20) }), 413],
    ['txid as a number', JSON.stringify({ currency: 'pivx', txid: 12 })],
    ['txid as an array', JSON.stringify({ currency: 'pivx', txid: [txid, txid] })],
    ['migrate as a string', JSON.stringify({ currency: 'dash', txid, migrate: 'true' })],
    ['neuronCount 51', JSON.stringify({ currency: 'satori', rewardAddress: 'E'.repeat(34), neuronCount: 51 })],
    ['neuronCount 1e9', JSON.stringify({ currency: 'satori', rewardAddress: 'E'.repeat(34), neuronCount: 1e9 })],
    ['neuronCount 2.5', JSON.stringify({ currency: 'satori', rewardAddress: 'E'.repeat(34), neuronCount: 2.5 })],
    [
      'burn_output_id negative',
      JSON.stringify({ currency: 'sin', txid, burntxid: 'ab'.repeat(32), burn_output_id: -1 }),
    ],
    ['an array body', JSON.stringify([{ currency: 'pivx', txid }])],
    ['a string body', JSON.stringify('pivx')],
    ['null', 'null'],
    ['broken JSON', '{"currency":"pivx",'],
    ['deeply nested', '{"currency":"pivx","txid":' + '['.repeat(5000) + ']'.repeat(5000) + '}'],
  ];
  for (const [what, body, status] of cases)
    await refused(what, () => (body.length > 100_000 ? rawHttp(body) : raw(body)), status ?? 400);
});

it('multipart: parts foreign to the validator payload, __proto__ / constructor parts, text for a file, a JSON body with a multipart type', async () => {
  const { text } = await makeKeystore('keystore pass 1', smallPbkdf2());
  const withPart = (name: string, value: string) => {
    const f = validatorForm({ files: [['k.json', text]] });
    f.append(name, value);
    return f;
  };
  for (const part of [
    'txid',
    'payee',
    'monero_secret',
    'migrate',
    'neuronCount',
    'rewardAddress',
    '__proto__',
    'constructor',
    'prototype',
    'user_id',
  ]) {
    const r = await refused(`part ${part}`, () => multipart(withPart(part, 'x')));
    expect(r.body.message, part).toContain(part);
  }
  // keystores sent as text rather than a file.
  const textKeystore = validatorForm({ files: [] });
  textKeystore.append('keystores', text);
  await refused('keystore as text', () => multipart(textKeystore));
  // A multipart type without a boundary.
  await refused('a multipart body with no boundary', () => raw('--x\r\n', 'multipart/form-data'), 415);
  expect(({} as any).polluted).toBeUndefined();
});

it('multipart: a field sent twice with different values is refused by name, nothing written', async () => {
  const { text } = await makeKeystore('keystore pass 1', smallPbkdf2());
  const twice = (name: string, value: string) => {
    const f = validatorForm({ files: [['k.json', text]] });
    f.append(name, value);
    return f;
  };
  // Which of the two the platform would use is a guess: a fee recipient sent twice could
  // route rewards to the second address a proxy appended. Refused, and the field named.
  for (const [name, value] of [
    ['fee_recipient', '0x' + '1'.repeat(40)],
    ['password', 'another password'],
    ['currency', 'gno'],
    ['package', 'cloud'],
  ] as const) {
    const r = await refused(`${name} twice`, () => multipart(twice(name, value)));
    expect(r.body.message, name).toContain(name);
  }
});

it('multipart: oversized text parts are refused by name', async () => {
  const { text } = await makeKeystore('keystore pass 1', smallPbkdf2());
  const f1 = validatorForm({ files: [['k.json', text]], password: 'p'.repeat(1001) });
  await refused('password of 1001', () => multipart(f1));
  const f2 = validatorForm({ files: [['k.json', text]], fee: FEE + ' '.repeat(10) + 'x'.repeat(100) });
  await refused('fee_recipient of 150', () => multipart(f2));
  const f3 = validatorForm({ files: [['k.json', text]], currency: 'e'.repeat(5000) });
  await refused('currency of 5000', () => multipart(f3));
});
