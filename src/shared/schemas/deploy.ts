import { z } from 'zod';
import { queueItem } from './nodes';

/**
 * The deploy contract (deployment-and-nodes.md sections 3, 7): get_deploy_info,
 * deploy_server (JSON, and multipart for validators), check_burn, get_building_servers.
 * The family rules with their exact messages are in ../deploy-rules.ts, shared by the
 * wizard and the server.
 */
export const coinQuery = z.object({ coin: z.string().trim().min(1, 'is required').max(40, 'is too long') }).strict();

export const plan = z.enum(['dedicated', 'cloud']);
export type Plan = z.infer<typeof plan>;

/** The deploy-info coin object (section 3) lives with the coin schemas; the deploy page reads it here. */
export { deployInfoCoin, deployInfoOutput as getDeployInfoOutput, type DeployInfoCoin } from './coins';

const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/** Deploy payload (section 3) plus Satori's form; one shape for every family but validators. */
export const deployServerInput = z
  .object({
    currency: z.string().trim().min(1, 'is required').max(40, 'is too long'),
    /** A transaction ID, an address or a license key, by family (families.ts `entry`). */
    txid: text(200).default(''),
    package: plan.default('dedicated'),
    payee: text(120).optional(),
    blsKey: text(200).optional(),
    migrate: z.boolean().optional(),
    monero_secret: text(200).optional(),
    burntxid: text(100).optional(),
    burn_output_id: z.coerce.number<number | string>().int().min(0).max(10_000).optional(),
    rewardAddress: text(120).optional(),
    neuronCount: z.coerce.number<number | string>({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 to 50').max(50, 'must be 1 to 50').optional(),
  })
  .strict();
export type DeployServerInput = z.input<typeof deployServerInput>;

export const deployServerOutput = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The first node's id (the deploy page waits for its server_created). */
  server_id: z.string(),
  /** Every node this deploy created (Satori: one per neuron). */
  server_ids: z.array(z.string()),
});
export type DeployServerOutput = z.infer<typeof deployServerOutput>;

export const MAX_KEYSTORES = 10;
export const MAX_KEYSTORE_BYTES = 64 * 1024;

/** Validators: what the multipart form carries, with each keystore file's text. */
export const deployValidatorsInput = z
  .object({
    currency: z.string().trim().min(1, 'is required').max(40, 'is too long'),
    package: plan.default('dedicated'),
    password: z.string().max(1000, 'must be at most 1000 characters'),
    fee_recipient: z.string().trim().max(100, 'must be at most 100 characters'),
    keystores: z
      .array(z.object({ name: z.string().min(1).max(100), text: z.string().max(MAX_KEYSTORE_BYTES, 'is over 64 KiB') }).strict())
      .max(MAX_KEYSTORES, 'You can upload up to 10 files'),
  })
  .strict();
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

export const checkBurnInput = z.object({ currency: z.string().trim().min(1, 'is required').max(40), txid: text(100) }).strict();
export type CheckBurnInput = z.input<typeof checkBurnInput>;
export const checkBurnOutput = z.object({ success: z.literal(true), message: z.string(), output_id: z.number().int() });

export const getBuildingServersOutput = z.object({ success: z.literal(true), data: z.array(queueItem) });

/** The fields a deploy error may name (`error_input`), shown under that field. */
export const DEPLOY_FIELDS = ['txid', 'payee', 'blsKey', 'monero_secret', 'burntxid', 'rewardAddress', 'neuronCount', 'package', 'password', 'fee_recipient', 'fee_address', 'keystores'] as const;
export type DeployField = (typeof DEPLOY_FIELDS)[number];
