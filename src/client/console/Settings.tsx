import { useEffect, useId, useState } from 'react';
import { bannerTones, type Banner, type PlatformSettings } from '../../shared/schemas/console';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert } from '../ui/Alert';
import { TextField } from '../ui/Field';
import { QueryState } from '../ui/QueryState';

/** Maintenance, the customers' banner and sign-up: each saved at once and written to the log. */
export function Settings() {
  const settings = trpc.console.settings.get.useQuery();
  return (
    <QueryState query={settings} what="The settings">
      {(s) => (
        <div className="console-settings">
          <MaintenanceSection s={s} />
          <BannerSection s={s} />
          <SignupSection s={s} />
        </div>
      )}
    </QueryState>
  );
}

/** Saved settings are read again (the page shows what the server holds). */
function useRefetchSettings() {
  const utils = trpc.useUtils();
  return { onSuccess: () => utils.console.settings.get.invalidate() };
}

function MaintenanceSection({ s }: { s: PlatformSettings }) {
  const save = trpc.console.settings.set_maintenance.useMutation(useRefetchSettings());
  return (
    <section className="console-section" aria-labelledby="maintenance-h">
      <h2 id="maintenance-h">Maintenance</h2>
      <p>
        Maintenance is <strong>{s.maintenance ? 'on' : 'off'}</strong>.{' '}
        {s.maintenance
          ? 'Customers see the maintenance page; the console keeps working.'
          : 'While it is on, customers see the maintenance page and their calls are refused.'}
      </p>
      <button
        type="button"
        className={`btn ${s.maintenance ? 'btn-primary' : 'btn-danger'}`}
        disabled={save.isPending}
        onClick={() => save.mutate({ on: !s.maintenance })}
      >
        {s.maintenance ? 'Switch maintenance off' : 'Switch maintenance on'}
      </button>
      {save.isError && <Alert kind="error">{errorMessage(save.error)}</Alert>}
    </section>
  );
}

function BannerSection({ s }: { s: PlatformSettings }) {
  const [draft, setDraft] = useState<Banner>(s.banner ?? { text: '', link: '', bg: 'info' });
  const current = JSON.stringify(s.banner);
  useEffect(() => {
    if (s.banner) setDraft(s.banner);
  }, [current]); // eslint-disable-line react-hooks/exhaustive-deps
  const save = trpc.console.settings.set_banner.useMutation(useRefetchSettings());
  const [done, setDone] = useState<string | null>(null);
  const colourId = useId();
  const submit = (banner: Banner | null) => {
    setDone(null);
    save.mutate(
      { banner },
      { onSuccess: () => setDone(banner ? 'The banner is shown to every customer.' : 'The banner is removed.') },
    );
  };
  return (
    <section className="console-section" aria-labelledby="banner-h">
      <h2 id="banner-h">Alert banner</h2>
      <p>{s.banner ? <>Shown now: “{s.banner.text}”</> : 'No banner is shown.'} Open dashboards update at once.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit(draft);
        }}
      >
        <TextField
          label="Banner text"
          value={draft.text}
          onValueChange={(text) => setDraft({ ...draft, text })}
          maxLength={200}
        />
        <TextField
          label="Banner link"
          value={draft.link}
          onValueChange={(link) => setDraft({ ...draft, link })}
          hint="Empty, a path such as /dashboard/billing, or an https:// address."
        />
        <div className="field">
          <label htmlFor={colourId}>Banner colour</label>
          <select
            id={colourId}
            value={draft.bg}
            onChange={(e) => setDraft({ ...draft, bg: e.target.value as Banner['bg'] })}
          >
            {bannerTones.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div className="console-buttons">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Show banner
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={save.isPending || !s.banner}
            onClick={() => submit(null)}
          >
            Remove banner
          </button>
        </div>
      </form>
      {save.isError && <Alert kind="error">{errorMessage(save.error)}</Alert>}
      {done && !save.isError && <Alert kind="success">{done}</Alert>}
    </section>
  );
}

function SignupSection({ s }: { s: PlatformSettings }) {
  const save = trpc.console.settings.set_signup.useMutation(useRefetchSettings());
  return (
    <section className="console-section" aria-labelledby="signup-h">
      <h2 id="signup-h">Sign-up</h2>
      <p>
        Sign-up is <strong>{s.signup_open ? 'open' : 'closed'}</strong>.{' '}
        {s.signup_open
          ? 'Visitors can create accounts.'
          : 'Registration is refused with a message; existing customers still log in.'}
      </p>
      <button
        type="button"
        className="btn btn-secondary"
        disabled={save.isPending}
        onClick={() => save.mutate({ open: !s.signup_open })}
      >
        {s.signup_open ? 'Close sign-up' : 'Open sign-up'}
      </button>
      {save.isError && <Alert kind="error">{errorMessage(save.error)}</Alert>}
    </section>
  );
}
