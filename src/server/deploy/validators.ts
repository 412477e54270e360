import { coinNode } from '../../shared/english';
import { randomBytes, randomUUID } from 'node:crypto';
import { familyOf } from '../../shared/families';
import type { DeployValidatorsInput } from '../../shared/schemas/deploy';
import { keystoreCountProblem, parseKeystore, signerProblem, uniqueFileName } from '../../shared/validator-upload';
import type { Context } from '../rpc/context';
import type { User } from '../db/schema';
import { fail } from '../kernel/errors';
import { checkDeployable, newNodeId, requestNodes, type NodeFields } from '../nodes/lifecycle';
import { checkKeystoreFiles } from '../nodes/keystore';
import { buildOutputText } from '../nodes/output-text';
import { validatorKeyInUse } from '../nodes/read';
import { sealSecrets } from '../nodes/node-secrets';
import { actOnDeploy, requestDeps } from './after-commit';
import { checkUserNodeLimit } from './user-limit';
import { checkFreeNodeLimit } from './free-limits';
import { writePaidNodes } from './paid-nodes';

export const NOT_VALIDATORS = (label: string) => `${coinNode(label, true)} are not validators: deploy them with their transaction ID or address.`;
export const KEY_IN_USE = 'This validator key is already deployed on this platform.';
export const DEPLOYED = 'Deployed';
export const NONE_DEPLOYED = 'No validator was deployed: see the message for each file.';
export const deployedCount = (n: number) => (n === 1 ? '1 validator deployed.' : `${n} validators deployed.`);

type FileResult = { success: boolean; message: string };

/**
 * Validators from the browser (tRPC, the files' text) or a script (the multipart form):
 * the upload's rules and messages (shared/validator-upload.ts), each keystore decrypted to prove the
 * password, each key deployed at most once on the whole platform. A bad file is reported
 * under its name and the others still deploy. Keystore and password are sealed per node.
 */
export async function deployValidatorFiles(ctx: Context, user: User, input: DeployValidatorsInput, signal?: AbortSignal) {
  const plan = input.package ?? 'dedicated';
  const { coin } = await checkDeployable(ctx.db, requestDeps(ctx), input.currency, plan);
  if (familyOf(coin.family).entry !== 'keystores') fail('BAD_REQUEST', NOT_VALIDATORS(coin.label), 'keystores');
  const countProblem = keystoreCountProblem(input.keystores.length);
  if (countProblem) fail('BAD_REQUEST', countProblem, 'keystores');
  const taken = new Set<string>();
  const files = input.keystores.map((k, i) => {
    const name = uniqueFileName(k.name, i, taken);
    const parsed = parseKeystore(name, k.text);
    if ('message' in parsed) fail('BAD_REQUEST', parsed.message, 'keystores');
    return { name, text: k.text, json: parsed.json };
  });
  const feeRecipient = input.fee_recipient.trim();
  const signer = signerProblem(input.password, feeRecipient);
  if (signer) fail('BAD_REQUEST', signer.message, signer.field);

  // Before the costly key derivations: an account at its limit spends no CPU on them.
  await checkUserNodeLimit(ctx.db, user.id, ctx.config.maxNodesPerUser, 1);
  await checkFreeNodeLimit(ctx.db, user.id, ctx.config, 1);
  const checks = await checkKeystoreFiles(files, input.password, { signal, owner: user.id });
  const data: Record<string, FileResult> = {};
  const candidates: { name: string; pubkey: string; text: string }[] = [];
  for (const [i, c] of checks.entries()) {
    if (!c.result.ok) data[c.name] = { success: false, message: c.result.message };
    else candidates.push({ name: c.name, pubkey: `0x${c.result.pubkey.toLowerCase()}`, text: files[i].text });
  }

  const deployId = randomUUID();
  const created = await ctx.db.transaction().execute(async (trx) => {
    const nodes: NodeFields[] = [];
    const names: string[] = [];
    for (const c of candidates) {
      // Inside the one writer's transaction, so a key raced by another account is seen here.
      if (await validatorKeyInUse(trx, c.pubkey)) {
        data[c.name] = { success: false, message: KEY_IN_USE };
        continue;
      }
      const mnId = newNodeId(coin.id);
      names.push(c.name);
      nodes.push({
        mn_id: mnId,
        entry: c.pubkey,
        validator_pubkey: c.pubkey,
        fee_recipient: feeRecipient,
        deploy_id: deployId,
        output_text: buildOutputText({ kind: 'validator', pubkey: c.pubkey, fee_recipient: feeRecipient }),
        // The token its validator client's Keymanager API takes (the fee recipient changes through it).
        secrets: sealSecrets(ctx.secrets, mnId, { keystore: c.text, keystore_password: input.password, keymanager_token: randomBytes(32).toString('hex') }),
      });
    }
    if (!nodes.length) return [];
    const made = await writePaidNodes(trx, ctx.config, { userId: user.id, plan, count: nodes.length }, () =>
      requestNodes(trx, requestDeps(ctx), { userId: user.id, coinId: coin.id, plan, nodes }),
    );
    for (const name of names) data[name] = { success: true, message: DEPLOYED };
    return made;
  });
  if (created.length) actOnDeploy(ctx);
  // The answer lists the files in the order they were sent.
  const ordered: Record<string, FileResult> = {};
  for (const f of files) ordered[f.name] = data[f.name];
  const ids = created.map((n) => n.mn_id);
  return {
    success: ids.length > 0,
    message: ids.length ? deployedCount(ids.length) : NONE_DEPLOYED,
    server_id: ids[0] ?? null,
    server_ids: ids,
    data: ordered,
  };
}
