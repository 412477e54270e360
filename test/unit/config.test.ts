import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/kernel/config';

describe('configuration from the environment', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.host).toBe('127.0.0.1');
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.smtpUrl).toBeNull();
  });

  it('builds PUBLIC_URL from HOST and PORT, and takes an explicit one without trailing slash', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).publicUrl).toBe('http://0.0.0.0:9000');
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).publicUrl).toBe('http://[::1]:9000');
    // IPv6 in brackets as in a URL, and host names, are taken too.
    expect(loadConfig({ HOST: '[::]', PORT: '9000' })).toMatchObject({ host: '::', publicUrl: 'http://[::]:9000' });
    expect(loadConfig({ HOST: 'node-1.example.lan' }).host).toBe('node-1.example.lan');
    expect(loadConfig({ HOST: 'localhost' }).host).toBe('localhost');
    expect(loadConfig({ PUBLIC_URL: 'https://nodes.example.com/' }).publicUrl).toBe('https://nodes.example.com');
  });

  it.each([
    ['HOST', '0.0.0.0.1'],
    ['HOST', '300.1.1.1'],
    ['HOST', 'bad host'],
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'ftp://x.example'],
    ['SMTP_URL', 'http://127.0.0.1:25'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['SESSION_TTL_DAYS', '0'],
    ['HOST_DISK_MIN_FREE_GB', '-1'],
    ['HOST_DISK_MIN_FREE_GB', '20GB'],
    ['HOST_DISK_MIN_FREE_GB', '1.2345'],
    ['HOST_CHECK_SECONDS', '0'],
    ['HOST_CHECK_SECONDS', 'soon'],
    ['MAIL_FROM', 'nodekeep'],
    ['MAIL_FROM', 'Nodekeep <nodekeep>'],
    ['MAIL_FROM', 'Nodekeep <a@example.com'],
    ['MAIL_FROM', 'a@example.com\r\nBcc: x@example.com'],
    ['MAIL_FROM', 'Nodekeep, Inc <noreply@example.com>'],
    ['MAIL_FROM', 'a@example.com <noreply@example.com>'],
    ['MAIL_FROM', 'Nodekeep; <noreply@example.com>'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  it('takes a sender address alone or with a name (the form docs/self-hosting.md shows)', () => {
    expect(loadConfig({}).mailFrom).toBe('no-reply@nodekeep.local');
    expect(loadConfig({ MAIL_FROM: 'noreply@example.com' }).mailFrom).toBe('noreply@example.com');
    expect(loadConfig({ MAIL_FROM: 'Nodekeep <noreply@example.com>' }).mailFrom).toBe('Nodekeep <noreply@example.com>');
    expect(loadConfig({ MAIL_FROM: '"Nodekeep, hosting" <noreply@example.com>' }).mailFrom).toBe(
      '"Nodekeep, hosting" <noreply@example.com>',
    );
  });

  it('reads the host disk threshold in GB (10^9 bytes) and the host check interval', () => {
    expect(loadConfig({})).toMatchObject({ hostDiskMinFreeBytes: 20e9, hostCheckMs: 60_000 });
    expect(loadConfig({ HOST_DISK_MIN_FREE_GB: '2.5', HOST_CHECK_SECONDS: '0.5' })).toMatchObject({
      hostDiskMinFreeBytes: 2.5e9,
      hostCheckMs: 500,
    });
    expect(loadConfig({ HOST_DISK_MIN_FREE_GB: '0' }).hostDiskMinFreeBytes).toBe(0);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', SMTP_URL: '' }).port).toBe(8080);
  });
});
