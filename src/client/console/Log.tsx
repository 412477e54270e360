import { useId, useState } from 'react';
import { logActorText, logDetailText } from '../../shared/log-detail';
import { operatorLogQuery } from '../../shared/schemas/console';
import { check, withLabel } from '../ui/forms';
import { trpc } from '../app/trpc';
import { Pager } from '../ui/Pager';
import { QueryState } from '../ui/QueryState';
import { utc } from './format';
import { CustomerText } from './CustomerText';
import { escapeBidi } from '../../shared/bidi';

const PER_PAGE = 50;

type Filter = { action: string; operator: string; from: string; to: string };
const NO_FILTER: Filter = { action: '', operator: '', from: '', to: '' };

/** Every operator action, newest first: who, what, when, from where; filtered by action, operator and days. */
export function Log() {
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [page, setPage] = useState(1);
  const choices = trpc.console.log_filters.useQuery();
  const query = {
    page,
    per_page: PER_PAGE,
    action: filter.action || undefined,
    operator_id: filter.operator ? Number(filter.operator) : undefined,
    from: filter.from || undefined,
    to: filter.to || undefined,
  };
  // Not a submitted form: each filter applies as it changes. The same schema the server
  // checks says a wrong range under its field, and the log is not asked for meanwhile.
  const checked = check(operatorLogQuery, query);
  const errors = checked.ok ? {} : checked.errors;
  const log = trpc.console.log.useQuery(query, { enabled: checked.ok });
  const set = (patch: Partial<Filter>) => {
    setFilter({ ...filter, ...patch });
    setPage(1);
  };
  const ids = { action: useId(), operator: useId(), from: useId(), to: useId() };
  return (
    <div className="console-log">
      <form className="console-filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter the log">
        <div className="field">
          <label htmlFor={ids.action}>Action</label>
          <select id={ids.action} value={filter.action} onChange={(e) => set({ action: e.target.value })}>
            <option value="">All actions</option>
            {choices.data?.actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.operator}>Operator</label>
          <select id={ids.operator} value={filter.operator} onChange={(e) => set({ operator: e.target.value })}>
            <option value="">Anyone</option>
            {choices.data?.operators.map((o) => (
              <option key={o.id} value={String(o.id)}>
                {escapeBidi(o.username)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.from}>From (UTC day)</label>
          <input
            id={ids.from}
            type="date"
            value={filter.from}
            aria-invalid={errors.from ? true : undefined}
            onChange={(e) => set({ from: e.target.value })}
          />
          {errors.from && <p className="field-error">{withLabel('From (UTC day)', errors.from)}</p>}
        </div>
        <div className="field">
          <label htmlFor={ids.to}>To (UTC day)</label>
          <input
            id={ids.to}
            type="date"
            value={filter.to}
            aria-invalid={errors.to ? true : undefined}
            onChange={(e) => set({ to: e.target.value })}
          />
          {errors.to && <p className="field-error">{withLabel('To (UTC day)', errors.to)}</p>}
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => set(NO_FILTER)}>
          Clear
        </button>
      </form>
      {!checked.ok ? (
        <p className="muted">Correct the days above to see the log.</p>
      ) : (
        <QueryState query={log} what="The log">
          {(data) => (
            <>
              <p className="muted">{data.total === 1 ? '1 entry' : `${data.total} entries`}</p>
              <table className="console-table console-log-table">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Who</th>
                    <th>From</th>
                    <th>Action</th>
                    <th>Details</th>
                  </tr>
                </thead>
                <tbody>
                  {data.lines.map((l) => (
                    <tr key={l.id}>
                      <td className="nowrap">{utc(l.at)}</td>
                      <td>
                        <CustomerText text={logActorText(l)} />
                      </td>
                      <td>
                        <CustomerText text={l.address} />
                      </td>
                      <td className="nowrap">{l.action}</td>
                      <td>
                        <CustomerText text={logDetailText(l.detail)} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager page={data.page} total={data.total} perPage={data.per_page} onPage={setPage} label="Log pages" />
            </>
          )}
        </QueryState>
      )}
    </div>
  );
}
