import { operatorCommand } from '../runtime/executable';
import { coinNode, withArticle } from '../../shared/english';
import { randomBytes } from 'node:crypto';
import type { CoinRecord, Host, Masternode } from '../db/schema';
import { coinDetails, findCoin } from '../coins/catalog';
import { failedProbes, probeCalls, STATELESS_CALLS } from '../fleet/call-probe';
import type { DaemonFacts } from '../fleet/daemon-facts';
import type { NodeEngine } from '../fleet/engine';
import { DAEMON_TIMEOUT_MS, rpcAuth } from '../fleet/observe';
import { platformCalls } from '../fleet/platform-calls';
import { familyOf } from '../../shared/families';
import type { BinaryProfile, DaemonProfile } from '../fleet/profiles';
import { errorText } from '../jobs/attempt';
import { buildSpec, portFree } from './daemon-spec';
import type { FleetDeps } from './fleet-deps';
import { hostUsage, listHosts, placedAddresses } from './fleet-queries';
import { profileFor } from './lifecycle';
import { fitsHost, pairsInUse, pickHost, rowAddresses, takesNewNodes, type Placement, type Usage } from './placement';

/**
 * `coins check`: a coin's daemon tried on a host, the way a customer's node would run there,
 * before the coin is offered. In order, each step stopping the check when it fails:
 * the profile is verified from source (catalog/daemon-facts); a host with capacity can take
 * it (the named one, or the one placement would pick); the image (or program) is there;
 * `--version` says the pinned version; a throwaway daemon started with the platform's own
 * config answers every call the platform makes (fleet/call-probe.ts), on the coin's P2P
 * port on the host's IPv4; then it is removed, whatever happened.
 */
export type CheckStep = {
  step: 'profile' | 'host' | 'program' | 'version' | 'daemon' | 'calls' | 'p2p_port';
  ok: boolean;
  detail: string;
};
export type CheckOutcome = {
  passed: boolean;
  /** The first failed step's detail: what is missing, in one sentence. */
  reason: string | null;
  steps: CheckStep[];
  host: Host | null;
  program: string | null;
  programId: string | null;
};

type Deps = Pick<FleetDeps, 'db' | 'log' | 'engines' | 'profiles' | 'fleetDir'> & {
  facts: Record<string, DaemonFacts>;
  /** How long the throwaway daemon has to answer its first call (default 2 minutes). */
  startTimeoutMs?: number;
};

const VERSION_TIMEOUT_MS = 30_000;

class StepFailed extends Error {
  /** Set when a helper failed the step and it is not recorded yet. */
  step?: CheckStep['step'];
}

export async function checkCoin(d: Deps, coinId: string, hostName: string | null): Promise<CheckOutcome> {
  const steps: CheckStep[] = [];
  const out: CheckOutcome = { passed: false, reason: null, steps, host: null, program: null, programId: null };
  const pass = (step: CheckStep['step'], detail: string) => steps.push({ step, ok: true, detail });
  const stop = (step: CheckStep['step'], detail: string): never => {
    steps.push({ step, ok: false, detail });
    throw new StepFailed(detail);
  };
  try {
    const coin = await findCoin(d.db, coinId);
    if (!coin) return stop('profile', `no coin "${coinId}"`);
    const { id: profileId, profile } = profileFor(d.profiles, coin.family, coinDetails(coin).daemon);
    if (profile.run !== 'binary')
      return stop(
        'profile',
        `${coin.label} runs on the coin-daemon simulator (profile ${profileId}): name a real daemon profile in its catalog entry ("daemon")`,
      );
    const facts = d.facts[profileId];
    if (!facts?.verified)
      return stop(
        'profile',
        `profile ${profileId} is not verified from its source: ${facts?.reason ?? 'catalog/daemon-facts has no file for it'}`,
      );
    pass('profile', `profile ${profileId} verified against ${facts.repository} ${facts.tag}`);

    const placement = await chooseHost(d, profile, hostName);
    const host = placement.host;
    out.host = host;
    pass('host', `host ${host.name} (${host.engine}) can take ${withArticle(coinNode(coin.label))}`);

    const engine = d.engines.for(host);
    const program = host.engine === 'docker' ? profile.image! : profile.program;
    out.program = program;
    const found = await engine.program?.(program);
    if (found === undefined) return stop('program', `the ${host.engine} engine cannot say whether ${program} is there`);
    if (!found)
      return stop(
        'program',
        host.engine === 'docker'
          ? `image ${program} is not on host ${host.name}: build it with \`${operatorCommand(`images build ${profileId} --host ${host.name}`)}\``
          : `${program} is not an executable on this machine: install the coin's daemon there`,
      );
    out.programId = found.id;
    pass('program', `${program} is on host ${host.name}`);

    await checkVersion(engine, profile, program, pass, stop);
    await tryDaemon(d, engine, coin, profile, host, placement, pass, stop);
    out.passed = true;
  } catch (err) {
    if (err instanceof StepFailed && err.step) steps.push({ step: err.step, ok: false, detail: err.message });
    else if (!(err instanceof StepFailed)) {
      const detail = errorText(err);
      steps.push({ step: steps.length ? nextStep(steps) : 'profile', ok: false, detail });
      d.log.warn('coin check failed unexpectedly', { coin: coinId, error: detail });
    }
  }
  out.reason = out.passed ? null : (steps.find((s) => !s.ok)?.detail ?? 'the check did not finish');
  return out;
}

const ORDER: CheckStep['step'][] = ['profile', 'host', 'program', 'version', 'daemon', 'calls', 'p2p_port'];
const nextStep = (steps: CheckStep[]) =>
  ORDER[Math.min(ORDER.length - 1, ORDER.indexOf(steps[steps.length - 1].step) + 1)];

/** The named host if it can take the coin now, else the one placement would pick. */
async function chooseHost(d: Deps, profile: BinaryProfile, hostName: string | null): Promise<Placement> {
  const hosts = await listHosts(d.db);
  const usage = await hostUsage(d.db);
  const inUse = pairsInUse(await placedAddresses(d.db));
  const pick = (among: Host[]) =>
    pickHost(among, usage, 'dedicated', profile, { inUse, profiles: d.profiles }) ??
    pickHost(among, usage, 'cloud', profile, { inUse, profiles: d.profiles });
  if (hostName === null) {
    const placed = pick(hosts);
    if (!placed) throw stopWith('host', 'no active host with a free slot (and a free P2P address) can run it');
    return placed;
  }
  const host = hosts.find((h) => h.name === hostName);
  if (!host) throw stopWith('host', `no host "${hostName}"`);
  const placed = pick([host]);
  if (placed) return placed;
  throw stopWith('host', `host ${host.name} cannot take a node now: ${whyNot(host, usage, profile, d.profiles)}`);
}

/** Why placement passes this host for a node of `profile`, in the order placement asks. */
function whyNot(host: Host, usage: Usage, profile: BinaryProfile, profiles: Record<string, DaemonProfile>): string {
  if (host.state !== 'active') return `it is ${host.state}`;
  if (!takesNewNodes(host, profile)) return 'its disk is low';
  if (host.engine === 'docker' && !profile.image) return 'the profile names no image';
  if (!fitsHost(host, usage.get(host.id), profile, profiles))
    return host.disk_total_bytes === null || host.memory_total_bytes === null
      ? 'it has not reported its disk and memory yet (the host check)'
      : `what its nodes commit leaves no room for ${profile.resources?.disk_gb} GB of disk and ${profile.resources?.memory_gb} GB of memory`;
  if (profile.p2p_port !== undefined && !rowAddresses(host).ipv4.length)
    return 'it has no public IPv4 for the P2P port';
  return profile.p2p_port !== undefined
    ? `no free slot, or P2P port ${profile.p2p_port} is taken on every IPv4 it has`
    : 'it has no free slot';
}

/** A step's failure thrown from a helper (recorded by checkCoin's catch as that step). */
function stopWith(step: CheckStep['step'], detail: string): Error {
  return Object.assign(new StepFailed(detail), { step });
}

type Pass = (step: CheckStep['step'], detail: string) => void;
type Stop = (step: CheckStep['step'], detail: string) => never;

/** `<program> --version` (the image's entry point with that argument) says the pinned version. */
async function checkVersion(engine: NodeEngine, profile: BinaryProfile, program: string, pass: Pass, stop: Stop) {
  if (!engine.runOnce) return stop('version', `the ${engine.kind} engine cannot run ${program} once`);
  const args = profile.validator_client ? [profileCommand(profile), '--version'] : ['--version'];
  const ran = await engine.runOnce(program, args, VERSION_TIMEOUT_MS);
  const want = (profile.version ?? '').replace(/^v/, '');
  const firstLine = ran.output.trim().split('\n')[0]?.slice(0, 160) ?? '';
  if (ran.exitCode === null)
    return stop('version', `${program} --version did not finish in ${VERSION_TIMEOUT_MS / 1000} s`);
  if (!want) return stop('version', `the profile pins no version to compare with "${firstLine}"`);
  if (!ran.output.includes(want))
    return stop('version', `${program} --version says "${firstLine || `nothing (exit ${ran.exitCode})`}", not ${want}`);
  pass('version', `${program} --version says ${want}`);
}

/** The first word of the profile's command (Lighthouse's `lighthouse`), for images whose entry point is a shell. */
const profileCommand = (p: BinaryProfile) => p.args[0] ?? p.program.split('/').pop()!;

/** A throwaway daemon with the platform's own config, asked every call, then removed. */
async function tryDaemon(
  d: Deps,
  engine: NodeEngine,
  coin: CoinRecord,
  profile: BinaryProfile,
  host: Host,
  placement: Placement,
  pass: Pass,
  stop: Stop,
) {
  const node = throwawayNode(coin, placement);
  const { spec } = await buildSpec(node, coin, profile, host, d.fleetDir, {});
  const timeoutMs = d.startTimeoutMs ?? 120_000;
  // A daemon on this machine that cannot bind its P2P port often runs on without it
  // (bitcoind-family daemons keep their other binds): ask the port itself first. A
  // container's published port is refused by the engine at start instead.
  const taken = `P2P port ${profile.p2p_port} is taken on ${placement.ipv4} (host ${host.name})`;
  if (host.engine === 'local' && profile.p2p_port !== undefined && !(await portFree(profile.p2p_port)))
    return stop('p2p_port', taken);
  try {
    try {
      await engine.create(spec);
      await engine.start(spec.nodeId);
    } catch (err) {
      const text = errorText(err);
      if (profile.p2p_port !== undefined && /address already in use|port is already allocated|bind/i.test(text))
        return stop('p2p_port', taken);
      return stop('daemon', `the daemon did not start: ${text}`);
    }
    const calls = platformCalls(profile, { burn: familyOf(coin.family).wizard === 'burn' });
    const first = Object.keys(calls.replies).find((c) => STATELESS_CALLS.has(c) && !calls.optional.includes(c));
    const rpc = async () => ({
      endpoint: await engine.rpcEndpoint(spec.nodeId),
      auth: rpcAuth(node, false),
      timeoutMs: DAEMON_TIMEOUT_MS,
    });
    // Up to the start timeout for the first answer: a daemon loading its block index is slow.
    const deadline = Date.now() + timeoutMs;
    let lastError = 'no answer';
    for (let wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
      const state = await engine.inspect(spec.nodeId);
      if (state.state === 'exited' || state.state === 'missing') {
        const tail = (await engine.logs(spec.nodeId, 5).catch(() => '')).trim().split('\n').pop() ?? '';
        if (profile.p2p_port !== undefined && /bind|address already in use/i.test(tail)) return stop('p2p_port', taken);
        return stop('daemon', `the daemon stopped (exit ${state.exitCode ?? '?'})${tail ? `: ${tail}` : ''}`);
      }
      if (first) {
        const probe = (await probeCalls(profile, await rpc().catch(() => rpc()), { [first]: calls.replies[first] }))[0];
        if (probe.outcome === 'answered') break;
        lastError = probe.detail;
      }
      if (Date.now() > deadline)
        return stop(
          'daemon',
          `the daemon did not answer ${first ?? 'its RPC'} within ${timeoutMs / 1000} s: ${lastError}`,
        );
      await new Promise((r) => setTimeout(r, wait));
    }
    pass('daemon', `the daemon started with the platform's config and answers`);
    const probes = await probeCalls(profile, await rpc(), calls.replies);
    const failed = failedProbes(probes, calls);
    if (failed.length)
      return stop('calls', failed.map((p) => `${p.call}: ${p.outcome} (${p.detail.slice(0, 120)})`).join('; '));
    pass('calls', `${probes.length} calls: ${probes.map((p) => `${p.call} ${p.outcome}`).join(', ')}`);
    if (profile.p2p_port !== undefined) pass('p2p_port', `P2P port ${profile.p2p_port} is free on ${placement.ipv4}`);
    else pass('p2p_port', 'the daemon has no fixed P2P port');
  } finally {
    await engine
      .destroy(spec.nodeId)
      .catch((err) =>
        d.log.warn('coin check: the throwaway daemon was not removed', { node: spec.nodeId, error: errorText(err) }),
      );
  }
}

/** The row buildSpec reads, for a daemon no customer owns (user 0), never written to the database. */
function throwawayNode(coin: CoinRecord, placement: Placement): Masternode {
  return {
    mn_id: `check-${coin.id}-${randomBytes(4).toString('hex')}`,
    user_id: 0,
    package: 'dedicated',
    rpc_user: `nk${randomBytes(4).toString('hex')}`,
    rpc_password: randomBytes(18).toString('base64url'),
    server_ip: placement.ipv4,
    server_ip6: null,
    output_text: '',
  } as unknown as Masternode;
}
