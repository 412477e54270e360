import { z } from 'zod';

/** One referral bonus waiting for the operator (amount in micro-dollars, times ISO). */
export const heldReferralBonus = z.object({
  id: z.number().int(),
  referrer_id: z.number().int(),
  referrer: z.string().nullable(),
  referred_user_id: z.number().int(),
  referred: z.string().nullable(),
  amount_micros: z.number().int(),
  reason: z.string().nullable(),
  created_at: z.string(),
  matures_at: z.string(),
});
export const heldReferralBonusList = z.object({ bonuses: z.array(heldReferralBonus) });
export type HeldReferralBonusList = z.infer<typeof heldReferralBonusList>;

export const referralBonusIdInput = z.object({ id: z.number().int().positive() }).strict();
/** `changed`: false when the bonus was no longer waiting (decided by someone else, or cancelled). */
export const referralBonusDecisionOutput = z.object({ changed: z.boolean() });
