import { FAMILIES, FAMILY } from '../../shared/families';
import { payloadProblem } from '../../shared/deploy-rules';
import {
  fileTooLarge,
  keystoreCountProblem,
  MAX_KEYSTORE_BYTES,
  MAX_KEYSTORES,
  MAX_UPLOAD_BYTES,
  parseKeystore,
  signerProblem,
  uniqueFileName,
  UPLOAD_TOO_LARGE,
  type UploadProblem,
} from '../../shared/validator-upload';

/**
 * Reads the validators' deploy form (`POST /api/deploy_server` as multipart/form-data:
 * currency, package, password, fee_recipient, and `keystores` once per file) within
 * fixed limits. The body is counted as it arrives and reading stops at the cap, whether
 * or not Content-Length was sent (chunked bodies have none), so an oversized upload costs
 * at most MAX_UPLOAD_BYTES of memory. Only then is it parsed (the platform's FormData).
 * The limits and messages are the upload's own (shared/validator-upload.ts).
 */
export type UploadField = UploadProblem['field'];

export type KeystoreUpload = {
  /** Sanitised, unique within the upload: the key of the answer's `data` map. */
  name: string;
  text: string;
  json: unknown;
};

export type ValidatorUpload = {
  ok: true;
  currency: string;
  package: string;
  password: string;
  fee_recipient: string;
  keystores: KeystoreUpload[];
};

export type UploadRefusal = { ok: false; message: string; error_input?: UploadField; status: 400 | 413 | 415 };

const refuse = (
  message: string,
  error_input: UploadField | undefined,
  status: UploadRefusal['status'] = 400,
): UploadRefusal => (error_input ? { ok: false, message, error_input, status } : { ok: false, message, status });

/**
 * `multipart/form-data; boundary=…` and nothing else: the boundary RFC 2046 allows, plain
 * or quoted. The body is counted by this boundary and parsed with it alone (the parser is
 * handed the type rebuilt from it), so no second parameter or second type can make the
 * parser split on a boundary the count did not see.
 */
const FORM_TYPE =
  /^multipart\/form-data\s*;\s*boundary=(?:"([0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?])"|([0-9A-Za-z'()+_,\-./:=?]{1,70}))\s*$/i;

export async function readValidatorUpload(req: Request): Promise<ValidatorUpload | UploadRefusal> {
  const typed = FORM_TYPE.exec(req.headers.get('content-type') ?? '');
  if (!typed) return refuse('Expected a multipart/form-data upload with keystore files.', undefined, 415);
  const boundary = typed[1] ?? typed[2];
  const declared = req.headers.get('content-length');
  if (declared !== null && !(/^\d+$/.test(declared) && Number(declared) <= MAX_UPLOAD_BYTES))
    return refuse(UPLOAD_TOO_LARGE, 'keystores', 413);

  const body = await readCapped(req.body, MAX_UPLOAD_BYTES);
  if (!body) return refuse(UPLOAD_TOO_LARGE, 'keystores', 413);
  // Parsing costs by the part: 9,000 tiny parts in 580 KB held the main thread for up to
  // 150 ms. The form has four fields and its files; more parts are refused unread.
  const parts = partCount(body, boundary);
  if (parts > MAX_PARTS) return refuse(TOO_MANY_PARTS, 'keystores');
  if (parts < 1) return refuse(MALFORMED, undefined);

  let form: FormData;
  try {
    form = await new Response(body, {
      headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` },
    }).formData();
  } catch {
    return refuse(MALFORMED, undefined);
  }
  return readFields(form);
}

/** currency, package, password, fee_recipient and the files, with room for a form library's extra field or two. */
const MAX_PARTS = MAX_KEYSTORES + 6;
const TOO_MANY_PARTS = `The upload has too many parts: send the form's fields and at most ${MAX_KEYSTORES} keystore files.`;

const MALFORMED = 'The upload could not be read (malformed multipart body).';

/** How many parts a multipart body holds, at most: its boundary lines, less the closing one. */
function partCount(body: Uint8Array, boundary: string): number {
  const delimiter = Buffer.from(`--${boundary}`);
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let n = 0;
  for (let at = bytes.indexOf(delimiter); at !== -1; at = bytes.indexOf(delimiter, at + delimiter.length)) n += 1;
  return n - 1;
}

/** The whole body, or null as soon as it passes `cap` bytes (the rest is never read). */
async function readCapped(
  stream: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!stream) return new Uint8Array(new ArrayBuffer(0));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      // Stop pulling; the HTTP server discards (never stores) whatever the client still sends.
      reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(new ArrayBuffer(total));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/** The family whose deploy is this multipart upload. */
const UPLOAD_FAMILY = FAMILIES.find((f) => FAMILY[f].entry === 'keystores') ?? 'evm';

async function readFields(form: FormData): Promise<ValidatorUpload | UploadRefusal> {
  // Only the payload of the family that uploads keystores (families.ts): any other part is refused by name.
  const parts = Object.fromEntries(
    [...form.entries()]
      .filter(([k]) => k !== 'keystores' && k !== 'keystores[]')
      .map(([k, v]) => [k, typeof v === 'string' ? v : v.name]),
  );
  const foreign = payloadProblem({ label: 'validator', family: UPLOAD_FAMILY }, parts);
  if (foreign) return refuse(foreign.message, undefined);
  // A one-value field sent twice: which one counts would be a guess (a second fee
  // recipient appended on the way), so neither does.
  for (const name of Object.keys(parts)) {
    if (form.getAll(name).length > 1)
      return refuse(
        `The field ${name} was sent more than once.`,
        name === 'password' || name === 'fee_recipient' ? name : undefined,
      );
  }
  // `keystores[]` is how some form libraries spell a repeated field.
  const entries = [...form.getAll('keystores'), ...form.getAll('keystores[]')];
  if (entries.some((e) => typeof e === 'string')) return refuse('Keystores must be uploaded as files.', 'keystores');
  const files = entries as File[];
  const countProblem = keystoreCountProblem(files.length);
  if (countProblem) return refuse(countProblem, 'keystores');

  const taken = new Set<string>();
  const keystores: KeystoreUpload[] = [];
  for (const [i, file] of files.entries()) {
    const name = uniqueFileName(file.name, i, taken);
    if (file.size > MAX_KEYSTORE_BYTES) return refuse(fileTooLarge(name), 'keystores');
    const text = await file.text();
    const parsed = parseKeystore(name, text);
    if ('message' in parsed) return refuse(parsed.message, 'keystores');
    keystores.push({ name, text, json: parsed.json });
  }

  const password = text(form, 'password');
  const feeRecipient = text(form, 'fee_recipient').trim();
  const signer = signerProblem(password, feeRecipient);
  if (signer) return refuse(signer.message, signer.field);

  return {
    ok: true,
    currency: text(form, 'currency').trim(),
    package: text(form, 'package').trim(),
    password,
    fee_recipient: feeRecipient,
    keystores,
  };
}

/** A text field's first value ('' when absent or sent as a file). */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
