import { describe, expect, it } from 'vitest';
import { setBannerInput } from '../../shared/schemas/console';
import { addHostInput } from '../../shared/schemas/console-fleet';
import { check } from './forms';

describe('the form check', () => {
  it('puts a nested refusal under the field its path names, and says it in the server words', () => {
    const checked = check(setBannerInput, { banner: { text: 'Hi', link: 'javascript:x', bg: 'info' } }, [
      'text',
      'link',
      'bg',
    ]);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors).toEqual({
      link: 'must be empty, a path such as /dashboard/billing, or an http(s) address',
    });
    expect(checked.message).toBe(
      'banner.link: must be empty, a path such as /dashboard/billing, or an http(s) address',
    );
    expect(checked.unplaced).toBeNull();
  });

  it('keeps a refusal no field can show apart, so the form can still say it', () => {
    const checked = check(
      addHostInput,
      { name: 'h1', url: 'https://x', ipv4: '192.0.2.1', tls: { ca: 'x'.repeat(20_001), cert: '', key: '' } },
      ['name', 'url', 'ipv4', 'cert', 'key'],
    );
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors).toEqual({});
    expect(checked.unplaced).toBe('tls.ca: must be at most 20000 characters');
  });

  it('without field names, files every refusal under its first path segment', () => {
    const checked = check(setBannerInput, { banner: { text: '', link: '', bg: 'info' } });
    expect(!checked.ok && checked.errors).toEqual({ banner: 'must not be empty' });
  });
});
