import { getReferralsInput, getReferralsOutput, getRefInfosOutput } from '../../shared/schemas/billing';
import { router, scriptProcedure } from '../rpc/trpc';
import { getReferrals, getRefInfos } from './service';

// Procedure names are the spec's call names (platform-and-account.md section 7).
export const referralsRouter = router({
  get_referrals: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_referrals',
        summary:
          '`{success, referrals[{date, description, amount}], total}`: a page of your referral history, newest first: a line when a referred user signs up (amount 0), one while the bonus their first deposit earned you is pending (held 14 days; the description says so), and one when it is paid to your balance (`page`, `per_page` up to 100; 20 unless asked)',
      },
    })
    .input(getReferralsInput)
    .output(getReferralsOutput)
    .query(({ ctx, input }) => getReferrals(ctx, ctx.user.id, input ?? { page: 1, per_page: 20 })),
  get_ref_infos: scriptProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/get_ref_infos',
        summary:
          '`{success, total_refs, total_ref_earnings, total_ref_mns, pending_ref_earnings}`: the users you referred, the bonuses paid to your balance in USD, their nodes, and the bonuses still pending in USD',
      },
    })
    .output(getRefInfosOutput)
    .query(({ ctx }) => getRefInfos(ctx, ctx.user.id)),
});
