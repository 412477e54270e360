import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/server/kernel/html';

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? serverFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('escapeHtml (src/server/kernel/html.ts)', () => {
  it('escapes the five characters that matter in text and in quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
    expect(escapeHtml('plain text 123')).toBe('plain text 123');
  });

  it('is the server’s only HTML escaper: no file writes its own', () => {
    // An escaper is a replace over &, <, > and quotes; a second copy drifts (one forgot the single quote).
    const own = serverFiles('src/server').filter((f) => {
      if (path.normalize(f) === path.normalize('src/server/kernel/html.ts')) return false;
      const src = fs.readFileSync(f, 'utf8');
      return /escapeHtml\s*=|function\s+escapeHtml|\[&<>"'\]|'&amp;'|'&lt;'|&#\$\{/.test(src);
    });
    expect(own).toEqual([]);
  });
});
