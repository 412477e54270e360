import { z } from 'zod';
import { jsonFields, payloadBase, payloadSchema, UPLOAD_FIELDS } from './deploy-payload';
import { queueItem } from './nodes';

/**
 * The deploy contract (deployment-and-nodes.md sections 3, 7): get_deploy_info,
 * deploy_server (JSON, and multipart for validators), check_burn, get_building_servers.
 * The family rules with their exact messages are in ../deploy-rules.ts, shared by the
 * wizard and the server.
 */
export const coinQuery = z.object({ coin: z.string().trim().min(1, 'is required').max(40, 'is too long') }).strict();

export { plan, type Plan, type DeployField, deployServerInput, type DeployServerInput } from './deploy-payload';

/** The deploy-info coin object (section 3) lives with the coin schemas; the deploy page reads it here. */
export { deployInfoCoin, deployInfoOutput as getDeployInfoOutput, type DeployInfoCoin } from './coins';

export const deployServerOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The first node's id (the deploy page waits for its server_created). */
  server_id: z.string(),
  /** Every node this deploy created (Satori: one per neuron). */
  server_ids: z.array(z.string()),
});
export type DeployServerOutput = z.infer<typeof deployServerOutput>;

/** Validators: what the multipart form carries, with each keystore file's text (the evm family's payload). */
export const deployValidatorsInput = payloadSchema(UPLOAD_FIELDS);
export type DeployValidatorsInput = z.input<typeof deployValidatorsInput>;

/** Per keystore file: deployed, or why not (section 3, "Validator deployment result"). */
export const keystoreResult = z.object({ success: z.boolean(), message: z.string() });
export const deployValidatorsOutput = z.object({
  success: z.boolean(),
  message: z.string(),
  /** The first node created, when any was. */
  server_id: z.string().nullable(),
  server_ids: z.array(z.string()),
  data: z.record(z.string(), keystoreResult),
});
export type DeployValidatorsOutput = z.infer<typeof deployValidatorsOutput>;

export const checkBurnInput = z.object({ currency: payloadBase.currency, txid: jsonFields.burntxid.unwrap() }).strict();
export type CheckBurnInput = z.input<typeof checkBurnInput>;
export const checkBurnOutput = z.object({ success: z.literal(true), message: z.string(), output_id: z.number().int() });

export const getBuildingServersOutput = z.object({ success: z.literal(true), data: z.array(queueItem) });
