import { describe, expect, it } from 'vitest';
import { feeRecipientProblem, validatorProblems } from './validatorForm';

const good = { files: 2, password: 'secret', feeRecipient: '0x' + 'ab'.repeat(20), tried: true };

describe('the validator upload form (section 5)', () => {
  it('accepts 1 to 10 files with a password and a 0x fee recipient', () => {
    expect(validatorProblems(good)).toEqual({});
    expect(validatorProblems({ ...good, files: 10 })).toEqual({});
    expect(validatorProblems({ ...good, files: 1 })).toEqual({});
  });

  it('more than 10 files, as soon as they are chosen', () => {
    expect(validatorProblems({ ...good, files: 11, tried: false })).toEqual({ keystores: 'You can upload up to 10 files' });
    expect(validatorProblems({ ...good, files: 11 })).toEqual({ keystores: 'You can upload up to 10 files' });
  });

  it('no file, a missing password or address only after a try', () => {
    const empty = { files: 0, password: '', feeRecipient: '', tried: false };
    expect(validatorProblems(empty)).toEqual({});
    expect(validatorProblems({ ...empty, tried: true })).toEqual({
      keystores: 'Please select at least one file',
      password: 'Password required',
      fee_recipient: 'Address required',
    });
  });

  it('the fee recipient is 0x and exactly 40 hex characters', () => {
    expect(feeRecipientProblem('  ')).toBe('Address required');
    expect(feeRecipientProblem('0x' + 'a'.repeat(39))).toBe('Invalid address');
    expect(feeRecipientProblem('0x' + 'a'.repeat(41))).toBe('Invalid address');
    expect(feeRecipientProblem('0x' + 'g'.repeat(40))).toBe('Invalid address');
    expect(feeRecipientProblem('1x' + 'a'.repeat(40))).toBe('Invalid address');
    expect(feeRecipientProblem('0x' + 'A1'.repeat(20))).toBeNull();
    // Mixed case is an EIP-55 checksum: a wrong one is refused, a right one (EIP-55's own example) taken.
    expect(feeRecipientProblem('0x' + 'aB'.repeat(20))).toBe(
      "The address's checksum (EIP-55) does not match: check for a typo, or paste it in lower case.",
    );
    expect(feeRecipientProblem('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(validatorProblems({ ...good, feeRecipient: 'nope' })).toEqual({ fee_recipient: 'Invalid address' });
  });

  it('a password is any non-empty text (spaces count: EIP-2335 keeps them)', () => {
    expect(validatorProblems({ ...good, password: ' ' })).toEqual({});
  });
});
