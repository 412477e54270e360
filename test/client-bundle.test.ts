import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET, measureInitialJs } from '../bench/initial-js';

// Reads the built client (`npm test` builds first; alone: `npm run build:client`).
describe('the client bundle', () => {
  it('a visitor on "/" loads at most INITIAL_JS_BUDGET (107 KB) of gzipped JavaScript', () => {
    expect(fs.existsSync('dist/client/index.html'), 'dist/client is missing: run npm run build:client').toBe(true);
    const m = measureInitialJs();
    // The entry must not pull page code in statically: the landing chunk is separate.
    expect(m.landing.length).toBeGreaterThan(0);
    expect(m.initial.map((f) => f.file).some((f) => f.startsWith('Landing-'))).toBe(false);
    expect(m.firstViewGzip).toBeLessThanOrEqual(INITIAL_JS_BUDGET);
  });

  it('forms, charts and account pages stay out of the initial files', () => {
    const m = measureInitialJs();
    const initial = m.initial.map((f) => fs.readFileSync(`dist/client/assets/${f.file}`, 'utf8')).join('\n');
    // zod (forms), uPlot (charts) and qrcode (2FA) are the large libraries only some pages need.
    expect(initial).not.toContain('u-legend');
    expect(initial).not.toContain('otpauth://');
    expect(initial).not.toMatch(/ZodError|\$ZodType/);
  });

  it("keeps the operator console out of the customer's files: only a lazy gate chunk is named", () => {
    const m = measureInitialJs();
    const files = [...m.initial, ...m.landing].map((f) => f.file);
    const code = files.map((f) => fs.readFileSync(`dist/client/assets/${f}`, 'utf8')).join('\n');
    expect(files.some((f) => /^(Console|ConsoleGate|Overview|Log)-/.test(f))).toBe(false);
    // The console's text and styles, and even the gate's 2FA notice, live in their own chunks.
    expect(code).not.toContain('Nodekeep console');
    expect(code).not.toContain('console-nav');
    expect(code).not.toContain('two-factor authentication on your account');
    const assets = fs.readdirSync('dist/client/assets');
    expect(assets.some((f) => /^Console-[\w-]+\.js$/.test(f))).toBe(true);
    expect(assets.some((f) => /^ConsoleGate-[\w-]+\.js$/.test(f))).toBe(true);
  });
});
