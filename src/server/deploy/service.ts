import { coinNode } from '../../shared/english';
import { randomUUID } from 'node:crypto';
import { txidProblem } from '../../shared/address-check';
import { BLS_INCORRECT, deployProblem } from '../../shared/deploy-rules';
import { familyOf } from '../../shared/families';
import type { CheckBurnInput, DeployServerInput, DeployValidatorsInput } from '../../shared/schemas/deploy';
import { getDeployInfo as coinDeployInfo } from '../coins/service';
import { coinDetails, listCoins } from '../coins/catalog';
import type { Context } from '../rpc/context';
import type { CoinRecord, User } from '../db/schema';
import { fail } from '../kernel/errors';
import { checkDeployable, profileFor, requestNodes } from '../nodes/lifecycle';
import { actOnDeploy, requestDeps } from './after-commit';
import { isBlsSecretKey } from '../nodes/bls';
import { entryUsed, listUserNodes, sameDeployExists } from '../nodes/read';
import { buildQueue } from '../nodes/service';
import { deployGuard, UPLOAD_IN_FLIGHT } from './in-flight';
import { writePaidNodes } from './paid-nodes';
import { nodeFieldsFor } from './node-fields';
import { deployValidatorFiles } from './validators';

type Ctx = Context;

export const VALIDATORS_UPLOAD = 'Validators are deployed by uploading their keystore files: send multipart/form-data with keystores, password and fee_recipient.';
export const ZEN_ADDRESS_USED = 'This t_address was already used for a node. Please generate a new t_address for this node.';
export const BURN_REQUIRED = 'Burn transaction ID required.';
export const BURN_NOT_CHECKED = 'Please check the burn transaction first.';
export const BURN_MISMATCH = 'The burn output does not match this burn transaction. Please check the burn again.';
export const BURN_VERIFIED = 'Burn transaction verified.';
export const NO_BURN = (label: string) => `${coinNode(label, true)} need no burn transaction.`;

const ENTRY_NOUN = { txid: 'transaction ID', address: 'address', license: 'license key' } as const;
export const sameDeploy = (noun: string) => `You already deployed a node with this ${noun}.`;

export function getDeployInfo(ctx: Ctx, coinId: string) {
  return coinDeployInfo(ctx, coinId, (coin) => profileFor(ctx.fleet.profiles, coin.family, coinDetails(coin).daemon).profile.run === 'simulator');
}

/**
 * A JSON deploy (every family but validators): section 5's rules with the browser's
 * messages, then the server's own (a real BLS key, a fresh ZEN t_address, SIN's burn on
 * the chain), then the nodes in one transaction. Secrets are sealed before they are
 * written and never logged.
 */
export function deployServer(ctx: Ctx, user: User, input: DeployServerInput) {
  return deployGuard.run(user.id, async () => {
    const plan = input.package ?? 'dedicated';
    const { coin } = await checkDeployable(ctx.db, requestDeps(ctx), input.currency, plan);
    const family = familyOf(coin.family);
    if (family.entry === 'keystores') fail('BAD_REQUEST', VALIDATORS_UPLOAD, 'keystores');
    const problem = deployProblem({ id: coin.id, label: coin.label, family: coin.family, dip003_restrict: coin.dip003_restrict === 1 }, input);
    if (problem) fail('BAD_REQUEST', problem.message, problem.field);
    // Only the families that take a BLS key get past deployProblem with `migrate`.
    if (input.migrate === true && !isBlsSecretKey(input.blsKey ?? '')) fail('BAD_REQUEST', BLS_INCORRECT, 'blsKey');
    if (family.wizard === 'burn') await recheckBurn(ctx, coin, input);

    const neurons = family.entry === 'reward_address';
    const count = neurons ? (input.neuronCount ?? 1) : 1;
    const deployId = randomUUID();
    const nodes = Array.from({ length: count }, () =>
      neurons ? nodeFieldsFor(coin, { txid: input.rewardAddress }, ctx.secrets, { deploy_id: deployId }) : nodeFieldsFor(coin, input, ctx.secrets, { deploy_id: deployId }),
    );
    const entry = nodes[0].entry;
    const entryOnceIn = family.uniqueEntry ? (await listCoins(ctx.db)).filter((c) => c.family === coin.family).map((c) => c.id) : [];

    const created = await ctx.db.transaction().execute(async (trx) => {
      // Inside the transaction (SQLite has one writer): two deploys cannot both pass.
      if (entry && entryOnceIn.length && (await entryUsed(trx, entryOnceIn, entry))) fail('BAD_REQUEST', ZEN_ADDRESS_USED, 'txid');
      if (entry && !neurons && (await sameDeployExists(trx, user.id, coin.id, entry))) {
        fail('CONFLICT', sameDeploy(ENTRY_NOUN[family.entry as keyof typeof ENTRY_NOUN] ?? ENTRY_NOUN.txid), 'txid');
      }
      // Paid in the same transaction: a deploy the balance cannot cover writes nothing.
      return writePaidNodes(trx, ctx.config, { userId: user.id, plan, count: nodes.length }, () =>
        requestNodes(trx, requestDeps(ctx), { userId: user.id, coinId: coin.id, plan, nodes }),
      );
    });
    actOnDeploy(ctx);
    const ids = created.map((n) => n.mn_id);
    return {
      success: true as const,
      message: ids.length === 1 ? 'Your node is being deployed.' : `Your ${ids.length} nodes are being deployed.`,
      server_id: ids[0],
      server_ids: ids,
    };
  });
}

/** SIN: the wizard ran check_burn; the burn is looked up again, since the deploy may come from a script. */
async function recheckBurn(ctx: Ctx, coin: CoinRecord, input: DeployServerInput) {
  const burnTxid = input.burntxid?.trim() ?? '';
  if (!burnTxid) fail('BAD_REQUEST', BURN_REQUIRED, 'burntxid');
  if (input.burn_output_id === undefined || input.burn_output_id === null) fail('BAD_REQUEST', BURN_NOT_CHECKED, 'burntxid');
  const burn = await ctx.fleet.checkBurn(coin.id, burnTxid);
  if (!burn.ok) fail('BAD_REQUEST', burn.message, 'burntxid');
  if (burn.output_id !== Number(input.burn_output_id)) fail('BAD_REQUEST', BURN_MISMATCH, 'burntxid');
}

export function deployValidators(ctx: Ctx, user: User, input: DeployValidatorsInput, signal?: AbortSignal) {
  return deployGuard.run(user.id, () => deployValidatorFiles(ctx, user, input, signal), UPLOAD_IN_FLIGHT);
}

export async function checkBurn(ctx: Ctx, input: CheckBurnInput) {
  const { coin } = await checkDeployable(ctx.db, requestDeps(ctx), input.currency, 'dedicated');
  if (familyOf(coin.family).wizard !== 'burn') fail('BAD_REQUEST', NO_BURN(coin.label), 'burntxid');
  const txid = input.txid.trim();
  if (!txid) fail('BAD_REQUEST', BURN_REQUIRED, 'burntxid');
  // The deploy's own rule for the field (deploy-rules.ts): the same message before any daemon is asked.
  const malformed = txidProblem(txid, false);
  if (malformed) fail('BAD_REQUEST', malformed, 'burntxid');
  const burn = await ctx.fleet.checkBurn(coin.id, txid);
  if (!burn.ok) fail('BAD_REQUEST', burn.message, 'burntxid');
  return { success: true as const, message: BURN_VERIFIED, output_id: burn.output_id };
}

/** The build queue (platform-and-account.md section 4): one item per node, so a 25-neuron deploy shows 25. */
export async function getBuildingServers(ctx: Ctx, userId: number) {
  const [nodes, coins] = await Promise.all([listUserNodes(ctx.db, userId), listCoins(ctx.db)]);
  return { success: true as const, data: buildQueue(nodes, new Map(coins.map((c) => [c.id, c]))) };
}
