import { useState } from 'react';
import { bannerTones, setBannerInput, type Banner, type PlatformSettings } from '../../shared/schemas/console';
import { errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { SelectField, TextField } from '../ui/Field';
import { useForm } from '../ui/useForm';
import { QueryState } from '../ui/QueryState';
import { useConfirm } from '../ui/useConfirm';

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
  const confirm = useConfirm();
  // Switching it on stops every customer: asked first. Switching it off undoes that and asks nothing.
  const toggle = () =>
    s.maintenance
      ? save.mutate({ on: false })
      : void confirm.ask({
          title: 'Switch maintenance on?',
          effect:
            'Every customer sees the maintenance page and their calls are refused until you switch it off; their nodes keep running and the console keeps working.',
          confirmLabel: 'Switch maintenance on',
          busyLabel: 'Switching…',
          danger: true,
          action: () => save.mutateAsync({ on: true }),
        });
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
        onClick={toggle}
      >
        {s.maintenance ? 'Switch maintenance off' : 'Switch maintenance on'}
      </button>
      {save.isError && !confirm.dialog && <Alert kind="error">{errorMessage(save.error)}</Alert>}
      {confirm.dialog}
    </section>
  );
}

const NO_BANNER: Banner = { text: '', link: '', bg: 'info' };
const toneOptions = bannerTones.map((t) => ({ value: t, text: t }));

function BannerSection({ s }: { s: PlatformSettings }) {
  const save = trpc.console.settings.set_banner.useMutation(useRefetchSettings());
  const form = useForm({
    schema: setBannerInput,
    initial: s.banner ?? NO_BANNER,
    toInput: (banner) => ({ banner }),
    submit: (data) => save.mutateAsync(data),
    successMessage: () => 'The banner is shown to every customer.',
    alertInvalid: true,
  });
  // The fields follow the banner the server holds when it changes (saved here or in another tab).
  const current = JSON.stringify(s.banner);
  const [shown, setShown] = useState(current);
  if (shown !== current) {
    setShown(current);
    if (s.banner) form.setValues(s.banner);
  }
  const remove = trpc.console.settings.set_banner.useMutation(useRefetchSettings());
  return (
    <section className="console-section" aria-labelledby="banner-h">
      <h2 id="banner-h">Alert banner</h2>
      <p>{s.banner ? <>Shown now: “{s.banner.text}”</> : 'No banner is shown.'} Open dashboards update at once.</p>
      <form
        onSubmit={(e) => {
          remove.reset();
          void form.onSubmit(e);
        }}
        noValidate
      >
        <TextField {...form.field('text', 'Banner text')} maxLength={200} />
        <TextField
          {...form.field('link', 'Banner link')}
          hint="Empty, a path such as /dashboard/billing, or an http(s):// address."
        />
        <SelectField {...form.field('bg', 'Banner colour')} options={toneOptions} />
        <div className="console-buttons">
          <button type="submit" className="btn btn-primary" disabled={form.pending || remove.isPending}>
            Show banner
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={form.pending || remove.isPending || !s.banner}
            onClick={() => remove.mutate({ banner: null })}
          >
            Remove banner
          </button>
        </div>
      </form>
      {/* The last of the two buttons says how it went. */}
      {remove.isIdle && <FormAlerts form={form} />}
      {remove.isError && <Alert kind="error">{errorMessage(remove.error)}</Alert>}
      {remove.isSuccess && <Alert kind="success">The banner is removed.</Alert>}
    </section>
  );
}

function SignupSection({ s }: { s: PlatformSettings }) {
  const save = trpc.console.settings.set_signup.useMutation(useRefetchSettings());
  const confirm = useConfirm();
  // Closing stops new customers: asked first. Opening undoes that and asks nothing.
  const toggle = () =>
    s.signup_open
      ? void confirm.ask({
          title: 'Close sign-up?',
          effect:
            'Registration is refused with a message until you open sign-up again; existing customers still log in.',
          confirmLabel: 'Close sign-up',
          busyLabel: 'Closing…',
          danger: true,
          action: () => save.mutateAsync({ open: false }),
        })
      : save.mutate({ open: true });
  return (
    <section className="console-section" aria-labelledby="signup-h">
      <h2 id="signup-h">Sign-up</h2>
      <p>
        Sign-up is <strong>{s.signup_open ? 'open' : 'closed'}</strong>.{' '}
        {s.signup_open
          ? 'Visitors can create accounts.'
          : 'Registration is refused with a message; existing customers still log in.'}
      </p>
      <button type="button" className="btn btn-secondary" disabled={save.isPending} onClick={toggle}>
        {s.signup_open ? 'Close sign-up' : 'Open sign-up'}
      </button>
      {save.isError && !confirm.dialog && <Alert kind="error">{errorMessage(save.error)}</Alert>}
      {confirm.dialog}
    </section>
  );
}
