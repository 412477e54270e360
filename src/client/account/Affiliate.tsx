import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { trpc } from '../app/trpc';
import { useUser } from '../session/session';
import { PageHeader } from '../layout/DashboardShell';
import { CopyBlock } from '../ui/CopyButton';
import { formatCount, formatUsd2, MISSING } from '../ui/display';
import { TABLE_PAGE_SIZE } from '../ui/pages';
import { QueryError, QueryState } from '../ui/QueryState';
import { Stat } from '../ui/Stat';
import { MoneyTable } from './MoneyTable';
import './billing.css';

/** The link that brings a referral: `/ref/<username>` on this site (a code is a username). */
export function referralLink(origin: string, username: string): string {
  return `${origin}/ref/${encodeURIComponent(username)}`;
}

/**
 * /dashboard/affiliate: the user's referral link, what referrals brought (get_ref_infos)
 * and the history of sign-ups and bonuses (get_referrals, 10 per page). A bonus is
 * pending 14 days (its line says until when; "Pending earnings" sums them), then a ledger
 * transfer; each change sends `refresh_transactions`, which refetches both (liveQueries.ts).
 */
export function Affiliate() {
  const user = useUser();
  const infos = trpc.referrals.get_ref_infos.useQuery();
  const [page, setPage] = useState(1);
  const history = trpc.referrals.get_referrals.useQuery(
    { page, per_page: TABLE_PAGE_SIZE },
    { placeholderData: keepPreviousData },
  );
  const i = infos.data;
  const link = referralLink(window.location.origin, user.username);

  return (
    <>
      <PageHeader title="Affiliate" />
      <section className="card referral-link" aria-label="Referral link">
        <p>
          Share your link. When someone who signed up through it makes a first deposit of $10 or more, you earn a $10
          bonus. It shows as pending for 14 days, then is added to your balance, unless it needs a review first: then it
          stays pending until we have checked it.
        </p>
        <CopyBlock label="Your referral link" text={link} />
      </section>
      <section className="stats billing-section" aria-label="Referral totals">
        <Stat label="Referrals" value={i ? formatCount(i.total_refs) : MISSING} />
        <Stat label="Earnings" value={i ? formatUsd2(i.total_ref_earnings) : MISSING} />
        <Stat label="Pending earnings" value={i ? formatUsd2(i.pending_ref_earnings) : MISSING} />
        <Stat label="MNs of referrals" value={i ? formatCount(i.total_ref_mns) : MISSING} />
      </section>
      {infos.isError && !i && (
        <QueryError what="Your referral totals" error={infos.error} retry={() => void infos.refetch()} />
      )}
      <section className="card table-card billing-section" aria-labelledby="referrals-title">
        <h2 id="referrals-title">Referral history</h2>
        <QueryState query={history} what="The referral history" loadingLabel="Loading referrals…">
          {(data) => (
            <MoneyTable
              label="Referral history"
              rows={data.referrals}
              page={page}
              perPage={TABLE_PAGE_SIZE}
              total={data.total}
              onPage={setPage}
              empty={{
                title: 'No referrals yet',
                text: 'People who sign up through your link, and the bonuses their first deposits earn you, will be listed here.',
              }}
            />
          )}
        </QueryState>
      </section>
    </>
  );
}
