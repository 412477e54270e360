#!/usr/bin/env node
// The house's import rules, run by `npm run check:deps` and in CI (.ci/run):
//  1. the rules of .dependency-cruiser.cjs (fleet is adapters, no foreign queries files,
//     the composition root on top, the client never imports the server, no file cycle);
//  2. no two top-level folders of src/server (or of src/client) import each other in a
//     circle, directly or through others;
//  3. every table is read and written only by the folder that owns it (TABLE_OWNERS).
// Exits 1 with one line per finding. `--folder <name>` shows only findings about one folder.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { cruise } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const config = require(path.resolve('.dependency-cruiser.cjs'));
const only = process.argv.includes('--folder') ? process.argv[process.argv.indexOf('--folder') + 1] : null;

/** Which src/server folder owns each table (and view) of src/server/db/schema.ts. */
export const TABLE_OWNERS = {
  users: 'auth',
  sessions: 'auth',
  email_tokens: 'auth',
  username_holds: 'auth',
  setup_tokens: 'auth',
  auth_epoch: 'auth',
  page_visits: 'auth',
  api_keys: 'apikeys',
  ledger_accounts: 'billing',
  ledger_transfers: 'billing',
  card_sessions: 'billing',
  card_events: 'billing',
  card_disputes: 'billing',
  card_reversals: 'billing',
  gift_codes: 'billing',
  deposit_currencies: 'billing',
  deposit_addresses: 'billing',
  deposits: 'billing',
  charge_days: 'billing',
  charge_late_alerts: 'billing',
  coin_checks: 'nodes',
  node_charges: 'billing',
  balance_reminders: 'billing',
  referral_bonuses: 'referrals',
  coins: 'coins',
  coin_daemon_versions: 'coins',
  market_quotes: 'market',
  market_history: 'market',
  nodes: 'nodes',
  node_view: 'nodes',
  placements: 'nodes',
  observations: 'nodes',
  sync_progress: 'nodes',
  validator_exit_files: 'nodes',
  node_rewards: 'nodes',
  node_uptime: 'nodes',
  node_events: 'nodes',
  hosts: 'nodes',
  masternode_key_moves: 'nodes',
  daemon_rollouts: 'nodes',
  image_builds: 'nodes',
  daemon_rollout_nodes: 'nodes',
  notifications: 'notifications',
  notification_settings: 'notifications',
  alert_channels: 'notifications',
  quiet_hours: 'notifications',
  node_alerts: 'notifications',
  events: 'events',
  jobs: 'jobs',
  mail_outbox: 'mail',
  settings: 'operator',
  operator_log: 'operator',
  support_conversations: 'support',
  support_messages: 'support',
  readiness_probe: 'ops',
};

const findings = [];
const say = (folder, line) => (!only || folder === only) && findings.push(line);

// 1 and 2: the import graph.
const result = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
const out = result.output;
for (const v of out.summary.violations) {
  const folder = v.from.split('/')[2];
  say(
    folder,
    `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ' (cycle: ' + v.cycle.map((c) => c.name ?? c).join(' → ') + ')' : ''}`,
  );
}
const top = (file) => {
  const m = file.match(/^src\/(server|client)\/([^/]+)\//);
  return m ? `${m[1]}/${m[2]}` : null;
};
const edges = new Map(); // "a b" -> one example import
for (const mod of out.modules) {
  const a = top(mod.source);
  if (!a) continue;
  for (const dep of mod.dependencies) {
    const b = top(dep.resolved);
    if (b && b !== a && !edges.has(`${a} ${b}`)) edges.set(`${a} ${b}`, `${mod.source} → ${dep.resolved}`);
  }
}
const adj = new Map();
for (const k of edges.keys()) {
  const [a, b] = k.split(' ');
  if (!adj.has(a)) adj.set(a, []);
  adj.get(a).push(b);
}
// Tarjan: each strongly connected set of folders is one circle to break.
let index = 0;
const stack = [],
  on = new Set(),
  idx = new Map(),
  low = new Map();
function visit(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of adj.get(v) ?? []) {
    if (!idx.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) {
      const set = new Set(scc);
      const inner = [...edges].filter(([k]) => k.split(' ').every((x) => set.has(x)));
      for (const [k, example] of inner) {
        const [a, b] = k.split(' ');
        say(a.split('/')[1], `folder-cycle [${scc.sort().join(' ')}]: ${a} → ${b} (${example})`);
      }
    }
  }
}
for (const v of adj.keys()) if (!idx.has(v)) visit(v);

// 3: tables touched outside their owner. Every table of the schema has an owner.
const schemaText = fs.readFileSync('src/server/db/schema.ts', 'utf8');
const databaseBody = schemaText.slice(schemaText.indexOf('export interface Database {'));
for (const [, table] of databaseBody.slice(0, databaseBody.indexOf('}')).matchAll(/^\s+([a-z_]+):/gm))
  if (!TABLE_OWNERS[table])
    findings.push(`table-owner: ${table} (src/server/db/schema.ts) has no owner in TABLE_OWNERS`);
const tables = Object.keys(TABLE_OWNERS).join('|');
// Kysely's builders, a table name alone or first in an array, any quotes.
const builder = new RegExp(
  `(?:selectFrom|updateTable|insertInto|deleteFrom|replaceInto|innerJoin|leftJoin|rightJoin|fullJoin)\\(\\s*\\[?\\s*['"\`](${tables})\\b`,
  'g',
);
// Raw SQL, in any case and quoting, but only inside sql`...` templates (not in comments).
const sqlTemplate = /\bsql(?:<[^>]*>)?`([^`]*)`/g;
const rawSql = new RegExp(`\\b(?:from|join|update|into)\\s+["'\\[]?(${tables})\\b`, 'gi');
function* walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (p.endsWith('.ts')) yield p;
  }
}
for (const file of walk('src/server')) {
  const folder = file.split(path.sep)[2];
  if (folder.endsWith('.ts') || folder === 'db') continue; // the composition root and the schema/migrations
  const text = fs.readFileSync(file, 'utf8');
  const seen = new Set();
  const uses = [...text.matchAll(builder)].map((m) => ({ table: m[1], at: m.index }));
  for (const t of text.matchAll(sqlTemplate))
    for (const m of t[1].matchAll(rawSql)) uses.push({ table: m[1].toLowerCase(), at: t.index + m.index });
  for (const { table, at } of uses) {
    const owner = TABLE_OWNERS[table];
    if (owner !== folder && !seen.has(table)) {
      seen.add(table);
      const line = text.slice(0, at).split('\n').length;
      say(folder, `foreign-table: ${file}:${line} uses ${table} (owned by ${owner}/)`);
    }
  }
}

for (const f of findings) console.log(f);
console.log(findings.length ? `\n${findings.length} dependency findings` : 'dependency rules hold');
process.exit(findings.length ? 1 : 0);
