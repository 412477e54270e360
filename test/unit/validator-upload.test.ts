import { describe, expect, it } from 'vitest';
import {
  keystoreCountProblem,
  MAX_UPLOAD_BYTES,
  parseKeystore,
  signerProblem,
  UPLOAD_BODY_TOO_LARGE,
  UPLOAD_TOO_LARGE,
} from '../../src/shared/validator-upload';
import { deployValidatorsInput } from '../../src/shared/schemas/deploy';

const FEE = '0x' + 'ab'.repeat(20);

describe('the validator upload rules (one module for the wizard, the multipart reader and the service)', () => {
  it('takes 1 to 10 files', () => {
    expect(keystoreCountProblem(0)).toBe('Please select at least one file');
    expect(keystoreCountProblem(1)).toBeNull();
    expect(keystoreCountProblem(10)).toBeNull();
    expect(keystoreCountProblem(11)).toBe('You can upload up to 10 files');
  });

  it('wants a password, then a valid fee recipient (trimmed)', () => {
    expect(signerProblem('', FEE)).toEqual({ field: 'password', message: 'Password required' });
    expect(signerProblem('pw', '')).toEqual({ field: 'fee_recipient', message: 'Address required' });
    expect(signerProblem('pw', 'nope')).toEqual({ field: 'fee_recipient', message: 'Invalid address' });
    expect(signerProblem('pw', ` ${FEE} `)).toBeNull();
  });

  it('names the file that is not JSON', () => {
    expect(parseKeystore('a.json', '{"x":1}')).toEqual({ json: { x: 1 } });
    expect(parseKeystore('a.json', '{')).toEqual({ message: 'a.json: not a JSON file' });
  });

  it('states its limits in its messages', () => {
    expect(MAX_UPLOAD_BYTES).toBe(10 * 64 * 1024 + 16 * 1024);
    expect(UPLOAD_TOO_LARGE).toBe('The upload is too large: at most 10 files of 64 KiB each.');
    expect(UPLOAD_BODY_TOO_LARGE).toBe('Request body is too large (10 keystore files of 64 KiB at most).');
    const big = deployValidatorsInput.safeParse({
      currency: 'eth',
      password: 'pw',
      fee_recipient: FEE,
      keystores: [{ name: 'k.json', text: 'x'.repeat(64 * 1024 + 1) }],
    });
    expect(big.error?.issues[0].message).toBe('is over 64 KiB');
  });
});
