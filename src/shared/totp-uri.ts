/** The otpauth:// link an authenticator app scans (Key Uri Format), from the username and secret. */
export function totpUri(secret: string, username: string, issuer = 'Nodekeep'): string {
  const label = encodeURIComponent(`${issuer}:${username}`);
  const q = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: '6', period: '30' });
  return `otpauth://totp/${label}?${q.toString()}`;
}
