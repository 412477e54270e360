import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readValidatorUpload } from '../src/server/http/multipart';
import { MAX_UPLOAD_BYTES, uniqueFileName } from '../src/shared/validator-upload';
import { EIP55_MISMATCH } from '../src/shared/evm-address';

// A tiny app around the reader, on loopback, that also counts the body bytes the reader pulled.
let server: Server;
let base: string;
let pulled = 0;

beforeAll(async () => {
  const app = new Hono();
  app.post('/api/deploy_server', async (c) => {
    const raw = c.req.raw;
    let req = raw;
    if (raw.body) {
      const source = raw.body.getReader();
      const counted = new ReadableStream<Uint8Array>(
        {
          async pull(ctl) {
            const { done, value } = await source.read();
            if (done) return ctl.close();
            pulled += value.byteLength;
            ctl.enqueue(value);
          },
          cancel: (reason) => source.cancel(reason),
        },
        { highWaterMark: 0 },
      );
      req = new Request(raw.url, {
        method: 'POST',
        headers: raw.headers,
        body: counted,
        duplex: 'half',
      } as RequestInit);
    }
    const r = await readValidatorUpload(req);
    if (!r.ok) return c.json({ success: false, message: r.message, error_input: r.error_input }, r.status);
    return c.json({
      success: true,
      currency: r.currency,
      package: r.package,
      password: r.password,
      fee_recipient: r.fee_recipient,
      files: r.keystores.map((k) => ({
        name: k.name,
        bytes: k.text.length,
        version: (k.json as { version?: number }).version,
      })),
    });
  });
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  pulled = 0;
});

const FEE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const keystoreJson = (i: number) =>
  JSON.stringify({ version: 4, uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, crypto: {} });

function form(
  opts: {
    files?: Array<[string, string | Uint8Array<ArrayBuffer>]>;
    password?: string | null;
    fee?: string | null;
  } = {},
) {
  const f = new FormData();
  f.set('currency', 'eth');
  f.set('package', 'dedicated');
  if (opts.password !== null) f.set('password', opts.password ?? 'pässword 🔑');
  if (opts.fee !== null) f.set('fee_recipient', opts.fee ?? FEE);
  const files = opts.files ?? [['keystore-m_12381_3600_0_0_0.json', keystoreJson(0)]];
  for (const [name, content] of files) f.append('keystores', new Blob([content]), name);
  return f;
}

async function post(body: FormData) {
  const res = await fetch(`${base}/api/deploy_server`, { method: 'POST', body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('validator upload (multipart) limits', () => {
  it('reads a good upload: fields, files as JSON, names made safe and unique', async () => {
    const files: Array<[string, string]> = [
      ['keystore-a.json', keystoreJson(1)],
      ['keystore-a.json', keystoreJson(2)],
      ['C:\\Users\\me\\..\\keystore-b.json', keystoreJson(3)],
      ['ev\u0000il\u202e\u0007.json', keystoreJson(4)],
      ['__proto__', keystoreJson(5)],
      [`${'x'.repeat(150)}.json`, keystoreJson(6)],
    ];
    const { status, json } = await post(form({ files }));
    expect(status).toBe(200);
    expect(json).toMatchObject({
      success: true,
      currency: 'eth',
      package: 'dedicated',
      password: 'pässword 🔑',
      fee_recipient: FEE,
    });
    const names = (json.files as Array<{ name: string; version: number }>).map((f) => f.name);
    expect(names).toEqual([
      'keystore-a.json',
      'keystore-a (2).json',
      'keystore-b.json',
      'evil.json',
      '__proto__ (2)',
      `${'x'.repeat(95)}.json`,
    ]);
    expect((json.files as Array<{ version: number }>).every((f) => f.version === 4)).toBe(true);
  });

  it('takes exactly 10 files of 64 KiB each', async () => {
    const big = `{"pad":"${'a'.repeat(64 * 1024 - 10)}"}`;
    expect(Buffer.byteLength(big)).toBe(64 * 1024);
    const { status, json } = await post(
      form({ files: Array.from({ length: 10 }, (_, i) => [`k${i}.json`, big] as [string, string]) }),
    );
    expect(status).toBe(200);
    expect((json.files as unknown[]).length).toBe(10);
  });

  it('refuses eleven files', async () => {
    const { status, json } = await post(
      form({ files: Array.from({ length: 11 }, (_, i) => [`k${i}.json`, keystoreJson(i)] as [string, string]) }),
    );
    expect(status).toBe(400);
    expect(json).toEqual({ success: false, message: 'You can upload up to 10 files', error_input: 'keystores' });
  });

  it('refuses a body of many tiny parts before parsing it (9,000 in 580 KB held the main thread 150 ms)', async () => {
    const files = Array.from({ length: 3_000 }, (_, i) => [`${i}`, 'x'] as [string, string]);
    const { status, json } = await post(form({ files }));
    expect(status).toBe(400);
    expect(json).toEqual({
      success: false,
      message: "The upload has too many parts: send the form's fields and at most 10 keystore files.",
      error_input: 'keystores',
    });
    // Twenty files, within the byte cap, are refused by the same count (not parsed to find 20).
    const twenty = await post(form({ files: files.slice(0, 20) }));
    expect(twenty.json.message).toBe(
      "The upload has too many parts: send the form's fields and at most 10 keystore files.",
    );
  });

  it('refuses a 65 KiB file, naming it', async () => {
    const big = `{"pad":"${'a'.repeat(65 * 1024)}"}`;
    const { status, json } = await post(
      form({
        files: [
          ['ok.json', keystoreJson(1)],
          ['big.json', big],
        ],
      }),
    );
    expect(status).toBe(400);
    expect(json).toEqual({
      success: false,
      message: 'big.json: the file is larger than 64 KiB',
      error_input: 'keystores',
    });
  });

  it('refuses a file that is not JSON, naming it', async () => {
    const { json } = await post(
      form({
        files: [
          ['ok.json', keystoreJson(1)],
          ['notes.json', 'password=hunter2\n'],
        ],
      }),
    );
    expect(json).toEqual({ success: false, message: 'notes.json: not a JSON file', error_input: 'keystores' });
    const binary = await post(form({ files: [['key.json', new Uint8Array([0xff, 0xfe, 0x00, 0x01])]] }));
    expect(binary.json.message).toBe('key.json: not a JSON file');
  });

  it('names each missing part under its field', async () => {
    expect((await post(form({ files: [] }))).json).toEqual({
      success: false,
      message: 'Please select at least one file',
      error_input: 'keystores',
    });
    expect((await post(form({ password: null }))).json).toEqual({
      success: false,
      message: 'Password required',
      error_input: 'password',
    });
    expect((await post(form({ password: '' }))).json).toEqual({
      success: false,
      message: 'Password required',
      error_input: 'password',
    });
    expect((await post(form({ fee: null }))).json).toEqual({
      success: false,
      message: 'Address required',
      error_input: 'fee_recipient',
    });
    expect((await post(form({ fee: '0x123' }))).json).toEqual({
      success: false,
      message: 'Invalid address',
      error_input: 'fee_recipient',
    });
    const badChecksum = `${FEE.slice(0, 3)}${FEE[3].toUpperCase()}${FEE.slice(4)}`;
    expect((await post(form({ fee: badChecksum }))).json).toEqual({
      success: false,
      message: EIP55_MISMATCH,
      error_input: 'fee_recipient',
    });
    const asText = form({ files: [] });
    asText.append('keystores', keystoreJson(1));
    expect((await post(asText)).json).toEqual({
      success: false,
      message: 'Keystores must be uploaded as files.',
      error_input: 'keystores',
    });
  });

  it('refuses a 5 MB chunked body (no Content-Length) after reading no more than the cap', async () => {
    const total = 5 * 1024 * 1024;
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string; sentWhenAnswered: number }>((resolve, reject) => {
      const req = http.request(`${base}/api/deploy_server`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'transfer-encoding': 'chunked' },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const sentWhenAnswered = sent;
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body, sentWhenAnswered });
        });
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      req.write('--xyz\r\nContent-Disposition: form-data; name="keystores"; filename="a.json"\r\n\r\n');
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      success: false,
      message: 'The upload is too large: at most 10 files of 64 KiB each.',
      error_input: 'keystores',
    });
    // The reader stopped at the cap (plus the chunk that crossed it).
    expect(pulled).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(pulled).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 64 * 1024);
    expect(answer.sentWhenAnswered).toBeLessThan(total);
  });

  it('refuses a declared Content-Length over the cap before reading any of it', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${base}/api/deploy_server`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': String(5 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.write('--xyz\r\n'); // and then nothing more: the answer must not wait for the rest
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toBe('The upload is too large: at most 10 files of 64 KiB each.');
    expect(pulled).toBe(0);
  });

  it('refuses a malformed boundary and a body that is not multipart', async () => {
    const wrongBoundary = await fetch(`${base}/api/deploy_server`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=expected' },
      body: '--other\r\nContent-Disposition: form-data; name="password"\r\n\r\nx\r\n--other--\r\n',
    });
    expect(wrongBoundary.status).toBe(400);
    expect(await wrongBoundary.json()).toEqual({
      success: false,
      message: 'The upload could not be read (malformed multipart body).',
    });

    const truncated = await fetch(`${base}/api/deploy_server`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="keystores"; filename="a.json"\r\n\r\n{"a":1}',
    });
    expect(truncated.status).toBe(400);

    const noBoundary = await fetch(`${base}/api/deploy_server`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(noBoundary.status).toBe(415);
    const json = await fetch(`${base}/api/deploy_server`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    expect((await json.json()).message).toBe('Expected a multipart/form-data upload with keystore files.');

    // A type whose boundary the part count and the parser could read differently (a decoy
    // inside another parameter, two types joined) is refused, before its parts are counted.
    const parts = Array.from(
      { length: 40 },
      (_, i) => `--real\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\nx\r\n`,
    );
    for (const type of [
      'multipart/form-data; x="; boundary=fake"; boundary=real',
      'multipart/form-data; boundary=fake, multipart/form-data; boundary=real',
      'multipart/form-data; boundary=real; charset=utf-8',
    ]) {
      const r = await fetch(`${base}/api/deploy_server`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: `${parts.join('')}--real--\r\n`,
      });
      expect(r.status, type).toBe(415);
    }
    // A quoted boundary is read as the same boundary.
    const quoted = new Response(form());
    const plain = quoted.headers.get('content-type')!.replace(/boundary=(.*)$/, 'boundary="$1"');
    const ok = await fetch(`${base}/api/deploy_server`, {
      method: 'POST',
      headers: { 'content-type': plain },
      body: Buffer.from(await quoted.arrayBuffer()),
    });
    expect(ok.status).toBe(200);
  });
});

describe('many uploads at once', () => {
  /** One request from a given loopback address (127.x.y.z are distinct clients). */
  async function postFrom(localAddress: string, f: FormData) {
    const encoded = new Response(f);
    const body = Buffer.from(await encoded.arrayBuffer());
    return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
      const req = http.request(`${base}/api/deploy_server`, {
        method: 'POST',
        localAddress,
        headers: { 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('reads 100 uploads of ten 64 KiB files from 100 addresses at once, each whole and on its own', async () => {
    const file = (i: number) => `{"client":${i},"pad":"${'b'.repeat(64 * 1024 - 40)}"}`;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        postFrom(
          `127.0.${Math.floor(i / 200)}.${(i % 200) + 2}`,
          form({
            files: Array.from({ length: 10 }, (_, k) => [`k${k}.json`, file(i)] as [string, string]),
            password: `pw-${i}`,
          }),
        ),
      ),
    );
    answers.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.json.password).toBe(`pw-${i}`);
      expect((a.json.files as unknown[]).length).toBe(10);
    });
  }, 60_000);
});

describe('keystore file names', () => {
  it('falls back to a numbered name when nothing is left', () => {
    const taken = new Set<string>();
    expect(uniqueFileName('', 0, taken)).toBe('keystore-1.json');
    expect(uniqueFileName('/tmp/', 1, taken)).toBe('keystore-2.json');
    expect(uniqueFileName('..', 2, taken)).toBe('keystore-3.json');
    expect(uniqueFileName('\u0001\u0002', 0, taken)).toBe('keystore-1 (2).json');
  });
});
