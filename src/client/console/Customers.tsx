import { useState } from 'react';
import { Link } from 'wouter';
import { customerSearchInput } from '../../shared/schemas/console-customers';
import { trpc } from '../app/trpc';
import { FormAlerts } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { useForm } from '../ui/useForm';
import { QueryState } from '../ui/QueryState';
import { usd, utc } from './format';
import { CustomerText } from './CustomerText';

/**
 * Find a customer by username, email (or a part of either) or id, and open their page.
 * Before a search the newest customers are listed, so the page is never blank.
 */
export function Customers() {
  const [q, setQ] = useState('');
  const searched = trpc.console.customers.search.useQuery({ q }, { enabled: q !== '' });
  const newest = trpc.console.customers.newest.useQuery(undefined, { enabled: q === '' });
  const found = q ? searched : newest;
  const form = useForm({
    schema: customerSearchInput,
    initial: { q: '' },
    // The search is the query above: the form only says what to look for.
    submit: async (data) => setQ(data.q),
    successMessage: () => null,
    alertInvalid: true,
  });
  return (
    <div className="console-customers">
      <form className="console-filters" role="search" onSubmit={form.onSubmit} noValidate>
        <TextField {...form.field('q', 'Username, email or id')} type="search" maxLength={100} />
        <button type="submit" className="btn btn-primary" disabled={!form.values.q.trim()}>
          Search
        </button>
      </form>
      <FormAlerts form={form} />
      {q ? (
        <p className="muted">
          Matches for “<CustomerText text={q} />” ·{' '}
          <button type="button" className="btn-link" onClick={() => setQ('')}>
            show the newest customers
          </button>
        </p>
      ) : (
        <p className="muted">The newest customers:</p>
      )}
      <QueryState query={found} what={q ? 'The search' : 'The customer list'}>
        {(r) =>
          r.customers.length ? (
            <>
              <table className="console-table">
                <thead>
                  <tr>
                    <th>Id</th>
                    <th>Username</th>
                    <th>Email</th>
                    <th>Balance</th>
                    <th>State</th>
                    <th>Since</th>
                  </tr>
                </thead>
                <tbody>
                  {r.customers.map((c) => (
                    <tr key={c.id}>
                      <td>{c.id}</td>
                      <td>
                        <Link href={`/customers/${c.id}`}>
                          <CustomerText text={c.username} />
                        </Link>
                      </td>
                      <td>
                        <CustomerText text={c.email} />
                      </td>
                      <td className="nowrap">{usd(c.balance_micros)}</td>
                      <td>
                        {[
                          c.disabled ? 'disabled' : 'active',
                          c.verified ? 'verified' : 'not verified',
                          c.tfa ? '2FA on' : null,
                          c.operator ? 'operator' : null,
                        ]
                          .filter(Boolean)
                          .join(', ')}
                      </td>
                      <td className="nowrap">{utc(c.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {r.more && (
                <p className="muted">
                  {q
                    ? 'Only the newest 50 matches are shown; type more to narrow the search.'
                    : 'Only the newest 50 customers are shown; search to find the others.'}
                </p>
              )}
            </>
          ) : q ? (
            <p className="muted">
              No customer matches “<CustomerText text={q} />
              ”.
            </p>
          ) : (
            <p className="muted">No customer has signed up yet.</p>
          )
        }
      </QueryState>
    </div>
  );
}
