import { describe, expect, it } from 'vitest';
import { matchTotpStep, newTotpSecret, totpCode } from '../../src/server/auth/totp';
import { totpUri } from '../../src/shared/totp-uri';

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vector', () => {
    // RFC 6238 appendix B: secret "12345678901234567890", T=59 s -> 94287082 (8 digits); 6 digits -> 287082.
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(matchTotpStep(secret, '287082', 59_000)).toBe(1);
  });

  it('allows one step of drift either way and no more', () => {
    const secret = newTotpSecret();
    const now = 1_800_000_000_000;
    expect(matchTotpStep(secret, totpCode(secret, now - 30_000), now)).toBe(Math.floor(now / 30_000) - 1);
    expect(matchTotpStep(secret, totpCode(secret, now + 30_000), now)).toBe(Math.floor(now / 30_000) + 1);
    expect(matchTotpStep(secret, totpCode(secret, now - 60_000), now)).toBeNull();
    const right = totpCode(secret, now);
    const wrong = right.slice(0, 5) + String((Number(right[5]) + 1) % 10);
    expect(
      matchTotpStep(secret, wrong, now) === null ||
        wrong === totpCode(secret, now - 30_000) ||
        wrong === totpCode(secret, now + 30_000),
    ).toBe(true);
  });

  it('builds the authenticator link from username and secret', () => {
    const uri = totpUri('JBSWY3DPEHPK3PXP', 'alice');
    expect(uri).toBe(
      'otpauth://totp/Nodekeep%3Aalice?secret=JBSWY3DPEHPK3PXP&issuer=Nodekeep&algorithm=SHA1&digits=6&period=30',
    );
  });
});
