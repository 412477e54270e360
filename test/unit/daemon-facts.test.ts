import path from 'node:path';
import fs from 'node:fs';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FAMILY, isFamily } from '../../src/shared/families';
import { loadDaemonFacts, optionsWritten } from '../../src/server/fleet/daemon-facts';
import { missingCalls, platformCalls } from '../../src/server/fleet/platform-calls';
import { loadProfiles, type BinaryProfile } from '../../src/server/fleet/profiles';

// Every production profile against what its daemon's source says (catalog/daemon-facts):
// a port, option or call the facts do not back fails here, and so does a reply shape the
// source documents that the platform's validators would refuse.
const root = path.resolve(import.meta.dirname, '../..');
const profiles = loadProfiles(path.join(root, 'catalog/daemons.json'));
const facts = loadDaemonFacts(path.join(root, 'catalog/daemon-facts'));
const coins = JSON.parse(fs.readFileSync(path.join(root, 'catalog/coins.json'), 'utf8')) as {
  coins: Record<string, { family: string }>;
};
const production = Object.entries(profiles).filter(
  (e): e is [string, BinaryProfile] => e[1].run === 'binary' && !!e[1].coins?.length,
);
const servesBurnCoin = (p: BinaryProfile) =>
  (p.coins ?? []).some((c) => {
    const family = coins.coins[c]?.family;
    return !!family && isFamily(family) && FAMILY[family].wizard === 'burn';
  });

it('every production profile has its facts file, and every facts file a profile', () => {
  expect(Object.keys(facts).sort()).toEqual(production.map(([id]) => id).sort());
});

it('every production profile says what one node needs of its host (placement counts it)', () => {
  expect(production.filter(([, p]) => !p.resources).map(([id]) => id)).toEqual([]);
});

describe.each(production.map(([id, p]) => ({ id, p })))('$id', ({ id, p }) => {
  const f = facts[id];
  if (!f?.verified) {
    it('is unverified and says why', () => expect(f?.reason).toBeTruthy());
    return;
  }
  it('pins the version its tag names', () => {
    expect(f.version?.value).toBe(p.version);
    // The tag names the version, or a release series the version is in (Chaincoin tags
    // 0.18.1 as v0.18): then the version fact, read at the tag, is what says 0.18.1.
    const version = p.version!.replace(/^v/, '');
    const series = f.tag!.replace(/^v/, '');
    expect(f.tag!.includes(version) || (/^\d+(\.\d+)*$/.test(series) && version.startsWith(`${series}.`))).toBe(true);
  });
  it('uses the P2P port the source sets for mainnet', () => {
    if (p.p2p_port !== undefined) expect(f.p2p_port?.value).toBe(p.p2p_port);
  });
  it('runs the program the build installs, with its config file', () => {
    expect(f.binaries?.daemon).toBe(path.basename(p.program));
    if (p.config_file) expect(f.config_file?.value).toBe(p.config_file);
  });
  it('writes only options the daemon defines', () => {
    const written = optionsWritten(p);
    if (p.operator_key_option) written.push(p.operator_key_option);
    if (p.validator_client) written.push(...optionsWritten(p.validator_client));
    expect(written.filter((k) => !f.config_keys?.[k])).toEqual([]);
  });
  it('makes only calls the daemon defines, and reads their documented replies', () => {
    const calls = platformCalls(p, { burn: servesBurnCoin(p) });
    // Required calls all there; of alternatives one; optional ones the reader does without.
    expect(missingCalls(calls, (c) => !!f.rpc_methods?.[c])).toEqual([]);
    for (const [call, validators] of Object.entries(calls.replies))
      for (const schema of validators) {
        if (!f.rpc_methods?.[call]) continue;
        const r = v.safeParse(schema, f.rpc_methods![call].reply);
        expect(r.success ? null : `${call}: ${r.issues.map((i) => i.message).join('; ')}`).toBeNull();
      }
  });
});
