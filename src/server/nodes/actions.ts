import type { z } from 'zod';
import { familyOf } from '../../shared/families';
import { evmAddressError } from '../../shared/evm-address';
import {
  DELETE_REASONS,
  type deleteMasternodeInput,
  type exitValidatorInput,
  type simulateDepositInput,
  type quickSetupInput,
  type registerSubmitInput,
  type setAlertsMutedInput,
  type updateAliasInput,
  type updateValidatorFeeInput,
} from '../../shared/schemas/nodes';
import type { Context } from '../rpc/context';
import type { Masternode } from '../db/schema';
import { fail } from '../kernel/errors';
import { insertEvent } from '../events/outbox';
import { FleetActionError } from '../fleet/access';
import { requestDestroy } from './lifecycle';
import { systemActor } from '../operator/log';
import { findCoin } from '../coins/catalog';
import { DaemonError } from '../fleet/daemons/http';
import { RpcError } from '../fleet/daemons/jsonrpc';
import { isBlsSecretKey } from './bls';
import { NotSupportedByDaemon, nodeDaemon, type NodeDaemon, type Proposal } from './daemon-calls';
import { startMarker, validatorOutput, withFeeRecipient } from './output-read';
import { parseQuickSetup, parseRegisterOutput } from './register-input';
import { claimStart, completeStart, findUserNode, releaseStart, updateNodeRow } from './repository';
import { queueQuickSetup } from './quick-setup-job';
import { keymanagerTokenOf } from './node-secrets';
import { validatorExitFile, validatorPubkeyOf } from './validator-exit';
import { keepExitFile } from './exit-files';
import { setNodeMuted } from '../notifications/node-alerts';

type Ctx = Pick<Context, 'db' | 'hub' | 'fleet' | 'log'>;

/** A key change is already queued for the node (rolls the claim back). */
class StartUnderWay extends Error {}
type FeeCtx = Ctx & Pick<Context, 'secrets'>;

export const NOT_FOUND = 'Masternode not found.';
export const NOT_RUNNING =
  'The node is not running yet. Please wait until it is up (its status shows "Start required"), then try again.';
export const ALREADY_STARTED = 'This node has already been started.';
export const START_UNDER_WAY = 'This node is being started right now. Please wait a minute, then check its status.';
export const NOT_VALIDATOR = 'Only validators have a fee recipient.';
export const NOT_DIP003 = 'This node is not started with a signed message.';
export const NOT_QUICK_SETUP = 'This node is not started with quick setup.';
export const OTHER_NEEDS_WORDS = 'Please tell us the reason in your own words.';
export const FEE_NOT_HERE =
  'The fee recipient of this validator cannot be changed from the node page. Please contact support.';
export const feeRefused = (reason: string) =>
  `Your validator client refused the new fee recipient (${reason}). Your fee recipient was not changed.`;

/** The caller's node; any other id (another user's, deleted, unknown) answers the same "not found" and changes nothing. */
async function ownNode(ctx: Ctx, userId: number, mnId: string): Promise<Masternode> {
  const n = await findUserNode(ctx.db, userId, mnId);
  if (!n) fail('NOT_FOUND', NOT_FOUND);
  return n;
}

async function familyOfNode(ctx: Ctx, n: Masternode) {
  const coin = await findCoin(ctx.db, n.coin_id);
  if (!coin) fail('NOT_FOUND', NOT_FOUND);
  return { coin, family: familyOf(coin.family) };
}

async function refresh(ctx: Ctx, n: Masternode, started = false) {
  await ctx.db.transaction().execute(async (trx) => {
    await insertEvent(trx, n.user_id, 'refresh_masternode', { mn_id: n.mn_id });
    await insertEvent(trx, n.user_id, 'refresh_masternodes', {});
    if (started) await insertEvent(trx, n.user_id, 'started', { mn_id: n.mn_id });
  });
  void ctx.hub.poke();
}

/** The owner mutes or unmutes their node's notifications; anyone else's id is "not found". */
export async function setAlertsMuted(
  ctx: Ctx,
  userId: number,
  input: z.infer<typeof setAlertsMutedInput>,
): Promise<{ success: true }> {
  const n = await ownNode(ctx, userId, input.mn);
  await setNodeMuted(ctx.db, n.id, input.muted);
  return { success: true };
}

export async function updateAlias(
  ctx: Ctx,
  userId: number,
  input: z.infer<typeof updateAliasInput>,
): Promise<{ success: true }> {
  const n = await ownNode(ctx, userId, input.mn);
  const alias = input.alias?.trim() ? input.alias.trim() : null;
  await updateNodeRow(ctx.db, n.id, { alias });
  await refresh(ctx, n);
  return { success: true };
}

/** A reason from the dialog's list (not "Other" itself), or the customer's own words. */
function deleteReason(reason: string): string {
  const r = reason.trim();
  if (r === 'Other') fail('BAD_REQUEST', OTHER_NEEDS_WORDS, 'reason');
  return r;
}

export async function deleteMasternode(
  ctx: Ctx,
  userId: number,
  input: z.infer<typeof deleteMasternodeInput>,
): Promise<{ success: true; message: string; slashing_protection?: string }> {
  const n = await ownNode(ctx, userId, input.mn);
  const reason = deleteReason(input.reason);
  const { family } = await familyOfNode(ctx, n);
  // Deleting first: nothing starts the node again from here on (a racing provision sees
  // it and destroys it). Then a validator stops signing before its slashing-protection
  // file is made: the file bounds everything the key signed here, so the next client to
  // run it stays safe. A validator that cannot be stopped gets no file.
  const gone = await requestDestroy(ctx.db, n, systemActor(`user ${userId}`), reason);
  if (!gone) fail('NOT_FOUND', NOT_FOUND);
  let slashing: string | undefined;
  let note = '';
  if (family.validator) {
    try {
      const made = await validatorExitFile(ctx, n);
      // Kept for the owner (Portfolio, Removed nodes); the answer is the kept file, which
      // the control loop may have made first.
      const pubkey = validatorPubkeyOf(n);
      if (made && pubkey) slashing = await keepExitFile(ctx.db, { ...n, delete_reason: reason }, pubkey, made);
    } catch (err) {
      ctx.log.error('validator not stopped on delete: no slashing-protection file given', { node: n.mn_id, err });
      note =
        ' The validator could not be stopped at once, so no slashing-protection file is offered: contact support before you run this key anywhere else.';
    }
  }
  void ctx.hub.poke();
  void ctx.fleet.reconcile().catch((err) => ctx.log.warn('reconcile after delete failed', { node: n.mn_id, err }));
  ctx.log.info('node deleted by its owner', {
    node: n.mn_id,
    user_id: userId,
    listed_reason: (DELETE_REASONS as readonly string[]).includes(reason),
  });
  return {
    success: true,
    message: `Masternode deleted.${note}`,
    ...(slashing ? { slashing_protection: slashing } : {}),
  };
}

/**
 * One fee change per node at a time (client, then row), so two changes racing cannot leave
 * the client on one address and the row on the other. Other nodes' changes do not wait.
 */
const feeChanges = new Map<string, Promise<void>>();
function oneAtATime(key: string, task: () => Promise<void>): Promise<void> {
  const run = (feeChanges.get(key) ?? Promise.resolve()).then(task);
  const tail = run.catch(() => {});
  feeChanges.set(key, tail);
  void tail.then(() => {
    if (feeChanges.get(key) === tail) feeChanges.delete(key);
  });
  return run;
}

/**
 * The running validator client takes the new fee recipient first (Keymanager API); only
 * then does the row change, so the page never shows an address the validator does not use.
 */
export async function updateValidatorFee(
  ctx: FeeCtx,
  userId: number,
  input: z.infer<typeof updateValidatorFeeInput>,
): Promise<{ success: true; message: string }> {
  const n = await ownNode(ctx, userId, input.mn);
  const { family } = await familyOfNode(ctx, n);
  if (!family.validator) fail('BAD_REQUEST', NOT_VALIDATOR, 'fee_recipient');
  const problem = evmAddressError(input.fee_recipient);
  if (problem) fail('BAD_REQUEST', problem, 'fee_recipient');
  const fee = input.fee_recipient.trim();
  const pubkey = n.validator_pubkey ?? validatorOutput(n.output_text)?.pubkey ?? null;
  const token = keymanagerTokenOf(ctx.secrets, n);
  if (!pubkey || !token) fail('SERVICE_UNAVAILABLE', FEE_NOT_HERE);
  const daemon = await daemonFor(ctx, n);
  const record = async (address: string) => {
    await updateNodeRow(ctx.db, n.id, {
      fee_recipient: address,
      output_text: withFeeRecipient(n.output_text, pubkey, address),
    });
  };
  await oneAtATime(n.mn_id, async () => {
    try {
      await daemon.setFeeRecipient(token, pubkey, fee);
    } catch (err) {
      if (err instanceof NotSupportedByDaemon) fail('SERVICE_UNAVAILABLE', FEE_NOT_HERE);
      if (err instanceof DaemonError && err.kind === 'rpc-error') fail('BAD_REQUEST', feeRefused(err.message));
      // No answer: the client may have taken it anyway. The row follows what the client
      // says it holds now, so the two never part; unreadable, the row stays as it was.
      const holds = err instanceof DaemonError ? await daemon.feeRecipient(token, pubkey).catch(() => null) : null;
      if (holds !== null && holds.toLowerCase() === fee.toLowerCase()) return record(fee);
      if (holds !== null) await record(holds);
      daemonFailure(err, 'fee recipient');
    }
    await record(fee);
  });
  await refresh(ctx, n);
  return { success: true, message: `Fee recipient changed to ${fee}.` };
}

export const NOT_EXITABLE_HERE =
  'The exit of this validator cannot be sent from the node page. Please contact support.';
export const NOT_DEPOSITED =
  'The beacon chain does not know this validator yet: its deposit has not been seen, so there is nothing to exit.';
export const notActive = (status: string) =>
  /EXITING/.test(status)
    ? 'This validator is already exiting.'
    : `Only an active validator can exit; its status on the beacon chain is ${status.toLowerCase()}.`;
export const EXIT_SENT =
  'The signed exit was sent to the network. Your validator leaves the active set after the exit queue: keep it running until its status shows it exited, or it misses duties and loses a little.';

/**
 * The owner's voluntary exit: the validator client signs it (Keymanager API) and the
 * beacon node publishes it, only while the beacon chain says the validator is active. One
 * at a time per node, so identical requests racing send one exit; the next one reads the
 * new state (exiting) and is refused.
 */
export async function exitValidator(
  ctx: FeeCtx,
  userId: number,
  input: z.infer<typeof exitValidatorInput>,
): Promise<{ success: true; message: string }> {
  const n = await ownNode(ctx, userId, input.mn);
  const { family } = await familyOfNode(ctx, n);
  if (!family.validator) fail('BAD_REQUEST', 'Only validators can exit.');
  const pubkey = validatorPubkeyOf(n);
  const token = keymanagerTokenOf(ctx.secrets, n);
  if (!pubkey || !token) fail('SERVICE_UNAVAILABLE', NOT_EXITABLE_HERE);
  const daemon = await daemonFor(ctx, n);
  await oneAtATime(`exit:${n.mn_id}`, async () => {
    let epoch: string;
    try {
      const state = await daemon.validatorState(pubkey);
      if (!state) fail('BAD_REQUEST', NOT_DEPOSITED);
      if (state.status !== 'ACTIVE_ONGOING') fail('BAD_REQUEST', notActive(state.status));
      epoch = await daemon.voluntaryExit(token, pubkey);
    } catch (err) {
      if (err instanceof NotSupportedByDaemon) fail('SERVICE_UNAVAILABLE', NOT_EXITABLE_HERE);
      daemonFailure(err, 'exit');
    }
    ctx.log.info('validator exit sent by its owner', { node: n.mn_id, epoch });
  });
  await refresh(ctx, n);
  return { success: true, message: EXIT_SENT };
}

export const NOT_SIMULATED_VALIDATOR =
  "Only a simulated validator's deposit can be simulated. Make this validator's deposit at its network's launchpad.";
export const DEPOSIT_SIMULATED =
  'The simulated beacon chain has seen the deposit. The validator is pending for a few blocks, then active.';

/**
 * Demo: no deposit can reach a simulated beacon chain, so its validator's deposit is made
 * here (the simulator's admin call); the monitor then reads pending and active from the
 * beacon API as it does for a real one. Repeating it changes nothing.
 */
export async function simulateDeposit(
  ctx: Ctx,
  userId: number,
  input: z.infer<typeof simulateDepositInput>,
): Promise<{ success: true; message: string }> {
  const n = await ownNode(ctx, userId, input.mn);
  const { family } = await familyOfNode(ctx, n);
  if (!family.validator || n.simulated !== 1) fail('BAD_REQUEST', NOT_SIMULATED_VALIDATOR);
  if (!(await ctx.fleet.daemonOf(n))) fail('BAD_REQUEST', NOT_RUNNING);
  try {
    await ctx.fleet.simulateDeposit(n);
  } catch (err) {
    ctx.log.warn('simulated deposit failed', { node: n.mn_id, err });
    fail('SERVICE_UNAVAILABLE', 'The simulator did not answer. Please try again in a minute.');
  }
  await refresh(ctx, n);
  return { success: true, message: DEPOSIT_SIMULATED };
}

/** The node's daemon, or the customer's "not running yet". */
async function daemonFor(ctx: Ctx, n: Masternode): Promise<NodeDaemon> {
  const d = await ctx.fleet.daemonOf(n);
  if (!d) fail('BAD_REQUEST', NOT_RUNNING);
  return nodeDaemon(d, n.mn_id);
}

/** A daemon's refusal in its own words; an unreachable daemon in ours. */
function daemonFailure(err: unknown, what: string): never {
  if (err instanceof RpcError) fail('BAD_REQUEST', `The network refused the ${what}: ${err.daemonMessage}`);
  if (err instanceof DaemonError && err.kind === 'rpc-error')
    fail('BAD_REQUEST', `The network refused the ${what}: ${err.message}`);
  if (err instanceof DaemonError)
    fail(
      'SERVICE_UNAVAILABLE',
      `Your node did not answer (${err.kind === 'timeout' ? 'timed out' : 'unreachable'}). Please try again in a few minutes.`,
    );
  throw err;
}

/**
 * The node's one start: claimed before its daemon is asked, so racing submits (from any
 * process) reach the daemon once and the monitor, seeing it run meanwhile, announces
 * nothing; given back when the daemon refuses. One `started` per node.
 */
async function withStartClaim<T>(ctx: Ctx, n: Masternode, run: () => Promise<T>): Promise<T> {
  const at = Date.now();
  if (!(await claimStart(ctx.db, n.id, at))) {
    // Deleted meanwhile: "not found". Started: said so. Otherwise another submit is asking
    // the daemon right now, and may yet fail: a script should try again, not give up.
    const now = await ownNode(ctx, n.user_id, n.mn_id);
    if (now.started_at !== null) fail('BAD_REQUEST', ALREADY_STARTED);
    fail('CONFLICT', START_UNDER_WAY);
  }
  let out: T;
  try {
    out = await run();
  } catch (err) {
    // The daemon's refusal is what the owner must hear, even if giving the claim back fails (it expires).
    await releaseStart(ctx.db, n.id, at).catch((e: unknown) =>
      ctx.log.error('start claim not released', { node: n.mn_id, err: e }),
    );
    throw err;
  }
  // Deleted while its daemon was asked: "not found", and no `started` for a node that is gone.
  if (!(await completeStart(ctx.db, n.id, at))) fail('NOT_FOUND', NOT_FOUND);
  await refresh(ctx, n, true);
  return out;
}

export async function registerSubmit(
  ctx: Ctx,
  userId: number,
  input: z.infer<typeof registerSubmitInput>,
): Promise<{ success: true; message: string }> {
  const n = await ownNode(ctx, userId, input.mn);
  const { family } = await familyOfNode(ctx, n);
  if (family.startCall !== 'register_submit') fail('BAD_REQUEST', NOT_DIP003);
  if (startMarker(n.output_text) !== 'not_active' || n.started_at !== null) fail('BAD_REQUEST', ALREADY_STARTED);
  const parsed = parseRegisterOutput(input.output);
  if (!parsed.ok) fail('BAD_REQUEST', parsed.message, 'output');
  const daemon = await daemonFor(ctx, n);
  const proTxHash = await withStartClaim(ctx, n, async () => {
    try {
      return await daemon.registerSubmit(parsed.value.tx, parsed.value.sig);
    } catch (err) {
      daemonFailure(err, 'registration');
    }
  });
  ctx.log.info('node registered by its owner', { node: n.mn_id, protx: proTxHash });
  return {
    success: true,
    message: 'Your node has been successfully submitted to the network. It may take up to 15 minutes to start running.',
  };
}

export async function quickSetup(
  ctx: Ctx & Pick<Context, 'secrets' | 'jobs'>,
  userId: number,
  input: z.infer<typeof quickSetupInput>,
): Promise<{ success: true; message: string }> {
  const first = await ownNode(ctx, userId, input.mn);
  const { family } = await familyOfNode(ctx, first);
  if (family.startCall !== 'quick_setup') fail('BAD_REQUEST', NOT_QUICK_SETUP);
  if (first.started_at !== null || startMarker(first.output_text) === 'migrated') fail('BAD_REQUEST', ALREADY_STARTED);
  const parsed = parseQuickSetup(input.secret);
  if (!parsed.ok) fail('BAD_REQUEST', parsed.message, 'secret');
  if (!isBlsSecretKey(parsed.value)) fail('BAD_REQUEST', 'Incorrect BLS key', 'secret');
  const n = first;
  if (!(await ctx.fleet.daemonOf(n))) fail('BAD_REQUEST', NOT_RUNNING);
  // The daemon restarts with the key in its config and is waited for: a queued job
  // (quick-setup-job.ts), claimed and queued in one transaction so the start happens once.
  const at = Date.now();
  const queued = await ctx.db
    .transaction()
    .execute(async (trx) => {
      if (!(await claimStart(trx, n.id, at))) return false;
      if (!(await queueQuickSetup(trx, ctx.secrets, n, at, parsed.value))) throw new StartUnderWay();
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof StartUnderWay) return false;
      throw err;
    });
  if (!queued) {
    const now = await ownNode(ctx, n.user_id, n.mn_id);
    if (now.started_at !== null) fail('BAD_REQUEST', ALREADY_STARTED);
    fail('CONFLICT', START_UNDER_WAY);
  }
  await refresh(ctx, n);
  void ctx.jobs.poke();
  return {
    success: true,
    message: 'Your node has been successfully submitted to the network. It may take up to 15 minutes to start running.',
  };
}

export async function getProposals(
  ctx: Ctx,
  userId: number,
  mnId: string,
): Promise<{ success: true; data: Proposal[] }> {
  const n = await ownNode(ctx, userId, mnId);
  const { family } = await familyOfNode(ctx, n);
  if (!family.governance) return { success: true, data: [] };
  const daemon = await daemonFor(ctx, n);
  try {
    return { success: true, data: await daemon.proposals() };
  } catch (err) {
    daemonFailure(err, 'request for proposals');
  }
}
