import { z } from 'zod';

// The console's Catalog page (issue 11): coins with prices and flags, and catalog imports.

export const catalogCoin = z.object({
  id: z.string(),
  label: z.string(),
  ticker: z.string(),
  family: z.string(),
  /** USD per day, as decimal text (exact: the ledger's micro-dollars). */
  dedicated_price: z.string(),
  cloud_price: z.string(),
  campaign_dedicated_price: z.string(),
  campaign_cloud_price: z.string(),
  campaign: z.boolean(),
  maintenance: z.boolean(),
  delisted: z.boolean(),
  cloud: z.boolean(),
  hosted: z.number().int(),
});
export const catalogList = z.array(catalogCoin);

const coinId = z.string().trim().min(1).max(32);
/** A USD amount per day such as "0.13": 0 to 1000, at most 6 decimals (the service's MAX_PRICE_MICROS). */
const PRICE_RULE = 'must be a USD amount per day from 0 to 1000, such as 0.13 (at most 6 decimals)';
const usdText = z
  .string()
  .trim()
  .regex(/^\d{1,4}(\.\d{1,6})?$/, PRICE_RULE)
  .refine((t) => Number(t) <= 1000, PRICE_RULE);

export const setPriceInput = z
  .object({ coin: coinId, dedicated: usdText.optional(), cloud: usdText.optional() })
  .strict()
  .refine((i) => i.dedicated !== undefined || i.cloud !== undefined, {
    message: 'give a dedicated and/or a cloud price',
    path: ['dedicated'],
  });
export const setFlagInput = z
  .object({ coin: coinId, flag: z.enum(['campaign', 'maintenance', 'cloud']), on: z.boolean() })
  .strict();
export const delistInput = z.object({ coin: coinId }).strict();

/** The file's text as uploaded (at most 2 MB). */
export const catalogFileInput = z
  .object({
    file_name: z.string().trim().min(1).max(200).default('catalog.json'),
    text: z.string().min(1, 'the file is empty').max(2_000_000, 'a catalog file is at most 2 MB'),
  })
  .strict();
export const importPreview = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    coins: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(['add', 'update', 'same']),
        changes: z.array(z.object({ field: z.string(), from: z.string(), to: z.string() })),
      }),
    ),
  }),
  z.object({ valid: z.literal(false), errors: z.array(z.string()) }),
]);
export const importResult = z.object({ added: z.array(z.string()), updated: z.array(z.string()) });
