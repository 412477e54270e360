import {
  heldReferralBonusList,
  referralBonusDecisionOutput,
  referralBonusIdInput,
} from '../../shared/schemas/console-referrals';
import { afterRaise } from '../notifications/raise';
import { operatorProcedure, router } from '../rpc/trpc';
import { approveReferralBonus, heldBonusList, refuseReferralBonus } from './console';

/** The console's list of referral bonuses waiting for approval. */
export const referralsConsoleRouter = router({
  held: operatorProcedure.output(heldReferralBonusList).query(({ ctx }) => heldBonusList(ctx.db)),
  approve: operatorProcedure
    .input(referralBonusIdInput)
    .output(referralBonusDecisionOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await approveReferralBonus(ctx.db, ctx.by, input.id);
      if (r.changed) afterRaise(ctx);
      return { changed: r.changed };
    }),
  refuse: operatorProcedure
    .input(referralBonusIdInput)
    .output(referralBonusDecisionOutput)
    .mutation(async ({ ctx, input }) => {
      const r = await refuseReferralBonus(ctx.db, ctx.by, input.id);
      if (r.changed) void ctx.hub.poke();
      return r;
    }),
});
