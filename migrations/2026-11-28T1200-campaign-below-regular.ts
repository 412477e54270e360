import { sql, type Kysely } from 'kysely';

// Frozen in time: uses Kysely<any> and no application code.
//
// The catalog once shipped campaign prices of $0.33 (dedicated) and $0.13 (cloud) per
// day, above most coins' regular prices, shown to customers as a discount. The seeded
// rows that still hold exactly those values, where they are not below the regular price,
// get the catalog's corrected campaign prices ($0.10 and $0.045). Prices an operator set
// are left alone.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update coins
       set campaign_dedicated_price = 100000, campaign_cloud_price = 45000
     where campaign_dedicated_price = 330000 and campaign_cloud_price = 130000
       and (campaign_dedicated_price >= dedicated_price or campaign_cloud_price >= cloud_price)
       and dedicated_price > 100000 and cloud_price > 45000`.execute(db);
}
