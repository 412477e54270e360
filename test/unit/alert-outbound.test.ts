import { describe, expect, it } from 'vitest';
import { isInternalAddress, urlProblem } from '../../src/server/notifications/channels/outbound';
import { signatureHeader, verifySignature } from '../../src/server/notifications/channels/webhook';

describe('alert webhook address policy', () => {
  it('knows internal addresses from public ones', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd12::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ]) {
      expect(isInternalAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '1.1.1.1'])
      expect(isInternalAddress(ip), ip).toBe(false);
  });

  it('refuses internal hosts unless allowed, and non-http schemes always', () => {
    const strict = { allowInternal: false };
    expect(urlProblem('https://hooks.example.com/x', strict)).toBeNull();
    expect(urlProblem('http://127.0.0.1:8080/x', strict)).toMatch(/public address/);
    expect(urlProblem('http://[::1]/x', strict)).toMatch(/public address/);
    expect(urlProblem('http://app.localhost/x', strict)).toMatch(/public address/);
    expect(urlProblem('http://127.0.0.1:8080/x', { allowInternal: true })).toBeNull();
    expect(urlProblem('file:///etc/passwd', { allowInternal: true })).toMatch(/Only http/);
  });
});

describe('webhook signature', () => {
  it('signs timestamp and body together; a stale timestamp is refused', () => {
    const body = '{"kind":"node_down"}';
    const h = signatureHeader('whsec_x', body, 1_700_000_000);
    expect(verifySignature('whsec_x', body, h, 1_700_000_010)).toBe('ok');
    expect(verifySignature('whsec_x', `${body} `, h, 1_700_000_010)).toBe('bad signature');
    expect(verifySignature('whsec_y', body, h, 1_700_000_010)).toBe('bad signature');
    expect(verifySignature('whsec_x', body, h.replace('t=1700000000', 't=1700000500'), 1_700_000_500)).toBe(
      'bad signature',
    );
    expect(verifySignature('whsec_x', body, h, 1_700_000_400)).toBe('stale');
  });
});
