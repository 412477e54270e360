import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';

/**
 * What a daemon's own source says, per production profile (catalog/daemon-facts/<profile>.json),
 * each fact with where it was read: a path and line in `repository` at `tag`. A profile is
 * verified only when its facts back every port, key and call it uses (test/unit/daemon-facts
 * holds the two together); an unverified one says why and is never offered in production.
 */
const Cite = v.pipe(
  v.string(),
  v.regex(/^[^\s:]+:\d+(-\d+)?$/, 'a citation is "path/in/repo:line" or "path:first-last"'),
);
const fact = <T extends v.GenericSchema>(value: T) => v.strictObject({ value, cite: Cite });
const Port = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535));

const DaemonFacts = v.pipe(
  v.strictObject({
    profile: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/)),
    /** The public source read: "owner/name" on GitHub. */
    repository: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/))),
    /** The release tag the profile pins, as the repository names it. */
    tag: v.optional(v.string()),
    /** The commit the files were read at, when the tag's own commit could not be read. */
    commit: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/))),
    verified: v.boolean(),
    /** Why not verified: what could not be found in source, in a sentence the console shows. */
    reason: v.optional(v.pipe(v.string(), v.minLength(10))),
    version: v.optional(fact(v.string())),
    p2p_port: v.optional(fact(Port)),
    rpc_port: v.optional(fact(Port)),
    /** The daemon's and its CLI's program names, as the build installs them. */
    binaries: v.optional(v.strictObject({ daemon: v.string(), cli: v.optional(v.string()), cite: Cite })),
    data_dir: v.optional(fact(v.string())),
    config_file: v.optional(fact(v.string())),
    /** Every option the profile writes (config file or command line), where the daemon defines it. */
    config_keys: v.optional(v.record(v.string(), Cite)),
    /**
     * Every call the platform makes (fleet/platform-calls.ts), where the daemon defines it,
     * and a reply in the shape its source documents (the help's Result, the API's schema):
     * the platform's validators must accept it.
     */
    rpc_methods: v.optional(
      v.record(v.string(), v.strictObject({ cite: Cite, reply: v.unknown(), note: v.optional(v.string()) })),
    ),
    /**
     * False where the coin's project publishes no node software anyone could run: customers
     * are told that, not that servers are being prepared.
     */
    public_daemon: v.optional(v.boolean()),
    /** Anything an operator must know that the facts do not say (companions, changes since). */
    notes: v.optional(v.string()),
  }),
  v.check((f) => f.verified || !!f.reason, 'an unverified profile says why (reason)'),
  v.check((f) => !(f.verified && f.public_daemon === false), 'a profile without a public daemon cannot be verified'),
  v.check((f) => !f.verified || (!!f.repository && !!f.tag), 'a verified profile names its repository and tag'),
);
export type DaemonFacts = v.InferOutput<typeof DaemonFacts>;

/** Every facts file of the folder, by profile; a file that does not parse stops start-up with its name. */
export function loadDaemonFacts(dir: string): Record<string, DaemonFacts> {
  const out: Record<string, DaemonFacts> = {};
  if (!fs.existsSync(dir)) return out;
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    } catch (err) {
      throw new Error(`daemon-facts/${name}: ${(err as Error).message}`);
    }
    const r = v.safeParse(DaemonFacts, raw);
    if (!r.success)
      throw new Error(r.issues.map((i) => `daemon-facts/${name}.${v.getDotPath(i) ?? ''}: ${i.message}`).join('\n'));
    if (`${r.output.profile}.json` !== name) throw new Error(`daemon-facts/${name}: names profile ${r.output.profile}`);
    out[r.output.profile] = r.output;
  }
  return out;
}

/**
 * The options a profile writes: `key=` lines of its config, `-key`/`--key` arguments, and
 * the lines written with the operator key (`operator_key_lines`; the key's own option is
 * the caller's to add).
 */
export function optionsWritten(p: { config?: string; args: string[]; operator_key_lines?: string[] }): string[] {
  const keys = new Set<string>();
  for (const line of [...(p.config ?? '').split('\n'), ...(p.operator_key_lines ?? [])]) {
    const m = /^\s*([A-Za-z0-9_.-]+)\s*=/.exec(line);
    if (m) keys.add(m[1]);
  }
  for (const arg of p.args) {
    const m = /^--?([A-Za-z0-9_.-]+)/.exec(arg);
    if (m) keys.add(m[1]);
  }
  return [...keys];
}
