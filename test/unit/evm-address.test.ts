import { describe, expect, it } from 'vitest';
import { EIP55_MISMATCH, evmAddress, evmAddressError, toChecksumAddress } from '../../src/shared/evm-address';

// The examples of EIP-55 itself (https://eips.ethereum.org/EIPS/eip-55).
const EIP55 = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  // All caps and all lower are valid too.
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
];

describe('EVM address (fee recipient)', () => {
  it.each(EIP55)('accepts the EIP-55 example %s', (address) => {
    expect(evmAddressError(address)).toBeNull();
    expect(evmAddress.safeParse(address).success).toBe(true);
  });

  it('computes the EIP-55 checksum of the spec examples from any case', () => {
    for (const address of EIP55.slice(0, 4)) {
      expect(toChecksumAddress(address.toLowerCase())).toBe(address);
      expect(toChecksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
    }
  });

  it('refuses a mixed-case address whose checksum does not match, saying so (its lower case passes)', () => {
    // One letter's case flipped in each example.
    for (const address of EIP55.slice(0, 4)) {
      const i = address.slice(2).search(/[a-fA-F]/) + 2;
      const c = address[i];
      const flipped =
        address.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(i + 1);
      expect(evmAddressError(flipped)).toBe(
        "The address's checksum (EIP-55) does not match: check for a typo, or paste it in lower case.",
      );
      expect(evmAddress.safeParse(flipped).error?.issues[0].message).toBe(EIP55_MISMATCH);
      expect(evmAddressError(flipped.toLowerCase())).toBeNull();
    }
  });

  it.each([
    ['', 'Address required'],
    ['   ', 'Address required'],
    ['0x', 'Invalid address'],
    ['5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'Invalid address'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'Invalid address'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd', 'Invalid address'],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg', 'Invalid address'],
    ['0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', 'Invalid address'],
  ])('refuses %j with %j', (input, message) => {
    expect(evmAddressError(input)).toBe(message);
    const parsed = evmAddress.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe(message);
  });

  it('answers Address required for a missing value in the zod schema', () => {
    expect(evmAddressError(undefined)).toBe('Address required');
    expect(evmAddress.safeParse(undefined).error?.issues[0].message).toBe('Address required');
  });

  it('trims surrounding spaces', () => {
    expect(evmAddress.parse(`  ${EIP55[0]} `)).toBe(EIP55[0]);
  });
});
