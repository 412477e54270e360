import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledCatalogPath } from '../../src/server/coins/import';
import { loadProfiles, type BinaryProfile } from '../../src/server/fleet/profiles';

// Every image nobody publishes has a recipe of the one shape (catalog/images/README.md),
// and each recipe follows its profile: a profile's version or program changed elsewhere
// shows here as the recipe to change with it.

const profiles = loadProfiles(bundledCatalogPath('daemons.json'));
/** No public daemon to build from (its profile says so). */
const NO_DAEMON = new Set(['playa3ull-node']);
const built = Object.entries(profiles).filter(
  (e): e is [string, BinaryProfile] =>
    e[1].run === 'binary' && (e[1].coins?.length ?? 0) > 0 && (e[1].image ?? '').startsWith('localhost/nodekeep/'),
);
const recipe = (id: string) => fs.readFileSync(path.join('catalog/images', id, 'Containerfile'), 'utf8');
const arg = (text: string, name: string) => new RegExp(`^ARG ${name}(?:=(.*))?$`, 'm').exec(text);

describe('image recipes', () => {
  it('exist for every localhost/nodekeep image but those without a public daemon, and for nothing else', () => {
    const want = built.map(([id]) => id).filter((id) => !NO_DAEMON.has(id));
    expect(want.length).toBeGreaterThan(20);
    const have = fs.readdirSync('catalog/images', { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(have.map((d) => d.name).sort()).toEqual([...want].sort());
  });

  it.each(built.filter(([id]) => !NO_DAEMON.has(id)))('%s has the shape and follows its profile', (id, p) => {
    const text = recipe(id);
    expect(text).toMatch(/^ARG BASE=debian:bookworm-slim\nFROM \$\{BASE\}$/m);
    // The default is the profile's version, and the image's tag says the same.
    expect(arg(text, 'VERSION')?.[1]).toBe(p.version);
    expect(p.image).toBe(`localhost/nodekeep/${id}:${p.version}`);
    expect(arg(text, 'URL')?.[1]).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/releases\/download\//);
    // A pinned checksum is 64 hex digits (its citation on the line above); else none at all.
    const sha = arg(text, 'SHA256');
    expect(sha).not.toBeNull();
    if (sha![1] !== undefined) {
      expect(sha![1]).toMatch(/^[0-9a-f]{64}$/);
      expect(text).toMatch(/^# SHA-256 of the .+ from .+\nARG SHA256=/m);
    }
    // The check comes before anything is downloaded.
    expect(text.indexOf('RUN test -n "$SHA256"')).toBeLessThan(text.indexOf('curl'));
    expect(text).toMatch(/sha256sum -c/);
    expect(text).toMatch(/^USER nodekeep$/m);
    expect(text).toMatch(/^VOLUME \/data$/m);
    expect(text).toMatch(/^HEALTHCHECK /m);
    expect(text).toContain(`ENTRYPOINT ["/usr/local/bin/${path.basename(p.program)}"]`);
    // A bitcoin-family daemon is checked through its CLI with the platform's config file.
    if (p.rpc === 'bitcoin') expect(text).toContain(`-conf=/data/${p.config_file} -datadir=/data getblockcount`);
  });
});
