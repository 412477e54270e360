import { evmAddressError } from './evm-address';
import { stripUnsafeText } from './plain-text';

/**
 * The validators' keystore upload (deployment-and-nodes.md sections 3, 5): its limits,
 * its file names and its messages, written once. The wizard checks them before it sends,
 * the server's multipart reader (http/multipart.ts) while it reads the form, and the
 * deploy service (deploy/validators.ts) on the tRPC route, so every door answers alike.
 */
export const MAX_KEYSTORES = 10;
export const MAX_KEYSTORE_BYTES = 64 * 1024;
/** A keystore file's name, as sent and as shown in the answer. */
export const MAX_FILE_NAME = 100;
/** Every file at its largest, plus room for the text fields and the part headers. */
export const MAX_UPLOAD_BYTES = MAX_KEYSTORES * MAX_KEYSTORE_BYTES + 16 * 1024;

const KIB = MAX_KEYSTORE_BYTES / 1024;

export const NO_FILES = 'Please select at least one file';
export const TOO_MANY_FILES = `You can upload up to ${MAX_KEYSTORES} files`;
export const PASSWORD_REQUIRED = 'Password required';
/** The multipart body passed MAX_UPLOAD_BYTES. */
export const UPLOAD_TOO_LARGE = `The upload is too large: at most ${MAX_KEYSTORES} files of ${KIB} KiB each.`;
/** The JSON (tRPC) body of the same files passed its cap. */
export const UPLOAD_BODY_TOO_LARGE = `Request body is too large (${MAX_KEYSTORES} keystore files of ${KIB} KiB at most).`;
/** The schema's message for a file's text over MAX_KEYSTORE_BYTES. */
export const KEYSTORE_OVER = `is over ${KIB} KiB`;
export const fileTooLarge = (name: string) => `${name}: the file is larger than ${KIB} KiB`;
export const notJson = (name: string) => `${name}: not a JSON file`;

export type UploadProblem = { field: 'keystores' | 'password' | 'fee_recipient'; message: string };

/** How many files were chosen: none, or more than the upload takes. */
export function keystoreCountProblem(count: number): string | null {
  if (count === 0) return NO_FILES;
  if (count > MAX_KEYSTORES) return TOO_MANY_FILES;
  return null;
}

/** The password and the fee recipient (the fee recipient trimmed first), the first problem. */
export function signerProblem(password: string, feeRecipient: string): UploadProblem | null {
  if (password === '') return { field: 'password', message: PASSWORD_REQUIRED };
  const fee = evmAddressError(feeRecipient.trim());
  return fee ? { field: 'fee_recipient', message: fee } : null;
}

/** A keystore file's text as JSON, or the message naming the file. */
export function parseKeystore(name: string, text: string): { json: unknown } | { message: string } {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return { message: notJson(name) };
  }
}

/**
 * A file name fit to show and to key the answer's map: the last path segment, without
 * control or direction-changing characters, at most MAX_FILE_NAME characters (keeping a
 * .json ending), never empty, and unique in the upload ("a.json", "a (2).json", ...).
 * `__proto__` is renamed too, so even a plain object built from the names stays a map.
 */
export function uniqueFileName(raw: string, index: number, taken: Set<string>): string {
  let name = stripUnsafeText(raw.split(/[/\\]/).pop() ?? '').trim();
  if (name === '' || name === '.' || name === '..') name = `keystore-${index + 1}.json`;
  const ext = /\.json$/i.test(name) ? name.slice(-5) : '';
  const stem = ext ? name.slice(0, -5) : name;
  const fit = (s: string, suffix: string) =>
    `${[...s].slice(0, MAX_FILE_NAME - suffix.length - ext.length).join('')}${suffix}${ext}`;
  let candidate = fit(stem, '');
  for (let n = 2; taken.has(candidate) || candidate === '__proto__'; n++) candidate = fit(stem, ` (${n})`);
  taken.add(candidate);
  return candidate;
}
