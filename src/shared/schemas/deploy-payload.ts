import { z } from 'zod';
import { KEYSTORE_OVER, MAX_FILE_NAME, MAX_KEYSTORE_BYTES, MAX_KEYSTORES, TOO_MANY_FILES } from '../validator-upload';

/**
 * The deploy payload's fields (deployment-and-nodes.md section 3), each shape written
 * once. The family registry (../families.ts) picks, per family, which of them its deploy
 * sends; the transport schemas of ./deploy.ts are derived from the same fields, so a
 * field's rules cannot differ between the wire and a family.
 */
const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

export const plan = z.enum(['dedicated', 'cloud']);
export type Plan = z.infer<typeof plan>;

/** What every deploy sends, whatever the family. */
export const payloadBase = {
  currency: z.string().trim().min(1, 'is required').max(40, 'is too long'),
  package: plan.default('dedicated'),
};

/** The family-dependent fields of a JSON deploy (every family but validators). */
export const jsonFields = {
  /** A transaction ID, an address or a license key, by family (families.ts `entry`). */
  txid: text(200).default(''),
  payee: text(120).optional(),
  blsKey: text(200).optional(),
  migrate: z.boolean().optional(),
  monero_secret: text(200).optional(),
  burntxid: text(100).optional(),
  burn_output_id: z.coerce.number<number | string>().int().min(0).max(10_000).optional(),
  rewardAddress: text(120).optional(),
  // A JSON number and nothing else: no coercion, which took "0x10" for 16, true for 1 and [2] for 2.
  neuronCount: z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 to 50')
    .max(50, 'must be 1 to 50')
    .optional(),
};

/**
 * Deploy payload (section 3) plus Satori's form, as one transport shape for every family
 * but validators: each family's own schema (families.ts `payload`) says which of these
 * fields its deploy may send.
 */
export const deployServerInput = z.strictObject({ ...payloadBase, ...jsonFields });
export type DeployServerInput = z.input<typeof deployServerInput>;

/** The validators' multipart form (section 3): one password for every keystore file. */
export const uploadFields = {
  password: z.string().max(1000, 'must be at most 1000 characters'),
  fee_recipient: z.string().trim().max(100, 'must be at most 100 characters'),
  keystores: z
    .array(
      z
        .object({
          name: z.string().min(1).max(MAX_FILE_NAME),
          text: z.string().max(MAX_KEYSTORE_BYTES, KEYSTORE_OVER),
        })
        .strict(),
    )
    // The count is the service's check (the same message and field over REST and tRPC);
    // the body limit bounds how many can arrive at all.
    .max(MAX_KEYSTORES * 4, TOO_MANY_FILES),
};

export type JsonField = keyof typeof jsonFields;
export type UploadField = keyof typeof uploadFields;
export const UPLOAD_FIELDS = Object.keys(uploadFields) as UploadField[];
export type PayloadField = JsonField | UploadField;
/** Every field a deploy may send besides `currency` and `package`: the one list of them. */
export const PAYLOAD_FIELDS = [...Object.keys(jsonFields), ...UPLOAD_FIELDS] as PayloadField[];
/** The fields a deploy error may name (`error_input`), shown under that field. */
export type DeployField = PayloadField | 'package' | 'fee_address';

const allFields = { ...jsonFields, ...uploadFields };

/**
 * A family's payload schema: the common fields and the ones it names, nothing else
 * (strict); the `required` ones may not be left out. (Which message a missing or empty
 * field gets is section 5's, in ../deploy-rules.ts.)
 */
export function payloadSchema<const F extends PayloadField>(fields: readonly F[], required: readonly F[] = []) {
  const pick = (f: F) => {
    const shape = allFields[f];
    return required.includes(f) && shape instanceof z.ZodOptional ? shape.unwrap() : shape;
  };
  const picked = Object.fromEntries(fields.map((f) => [f, pick(f)])) as { [K in F]: (typeof allFields)[K] };
  return z.strictObject({ ...payloadBase, ...picked });
}
