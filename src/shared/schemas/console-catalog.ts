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
  .object({
    coin: coinId,
    dedicated: usdText.optional(),
    cloud: usdText.optional(),
    campaign_dedicated: usdText.optional(),
    campaign_cloud: usdText.optional(),
  })
  .strict()
  .refine((i) => [i.dedicated, i.cloud, i.campaign_dedicated, i.campaign_cloud].some((p) => p !== undefined), {
    message: 'give a price to change',
    path: ['dedicated'],
  })
  // Where both sides are given here, a campaign below the regular price is checked at once
  // (the service checks the pair as it will be, with the prices not given).
  .refine((i) => !(i.dedicated && i.campaign_dedicated && Number(i.campaign_dedicated) >= Number(i.dedicated)), {
    message: 'the campaign price must be below the regular dedicated price',
    path: ['campaign_dedicated'],
  })
  .refine((i) => !(i.cloud && i.campaign_cloud && Number(i.campaign_cloud) >= Number(i.cloud)), {
    message: 'the campaign price must be below the regular cloud price',
    path: ['campaign_cloud'],
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
