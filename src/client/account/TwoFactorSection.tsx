import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { updateTfaInput } from '../../shared/schemas/auth';
import { totpUri } from '../../shared/totp-uri';
import { useUser } from '../session/session';
import { useForm } from '../ui/useForm';
import { trpc } from '../app/trpc';
import { Alert, FormAlerts } from '../ui/Alert';
import { CodeField } from '../ui/Field';
import { Modal } from '../ui/Modal';
import { PageLoading } from '../ui/Spinner';
import { QueryState } from '../ui/QueryState';
import './account.css';

type Dialog = { kind: 'enable' } | { kind: 'disable' } | { kind: 'done'; message: string } | null;

/** Settings' two-factor part: activate with a QR code and a code, disable with a code. */
export function TwoFactorSection() {
  const tfa = trpc.auth.get_tfa.useQuery();
  const [dialog, setDialog] = useState<Dialog>(null);

  return (
    <section className="card settings-section" aria-labelledby="tfa-heading">
      <h2 id="tfa-heading">Two-factor authentication</h2>
      <QueryState query={tfa} what="Two-factor settings">
        {(data) =>
          data.enabled ? (
            <div className="tfa-row">
              <p>
                <span className="flag flag-success">Enabled</span> A code from your authenticator app is asked for at
                every login.
              </p>
              <button type="button" className="btn btn-danger" onClick={() => setDialog({ kind: 'disable' })}>
                Disable
              </button>
            </div>
          ) : (
            <div className="tfa-row">
              <p>
                <span className="flag">Disabled</span> Protect your account with a code from an authenticator app.
              </p>
              <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'enable' })}>
                Activate
              </button>
            </div>
          )
        }
      </QueryState>
      {dialog?.kind === 'enable' && tfa.data && (
        <TfaDialog
          enable
          secret={tfa.data.secret}
          onClose={() => setDialog(null)}
          onDone={(message) => setDialog({ kind: 'done', message })}
        />
      )}
      {dialog?.kind === 'disable' && (
        <TfaDialog
          enable={false}
          onClose={() => setDialog(null)}
          onDone={(message) => setDialog({ kind: 'done', message })}
        />
      )}
      {dialog?.kind === 'done' && (
        <Modal
          title="Success"
          onClose={() => setDialog(null)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setDialog(null)}>
              OK
            </button>
          }
        >
          <Alert kind="success">{dialog.message}</Alert>
        </Modal>
      )}
    </section>
  );
}

type TfaDialogProps = { enable: boolean; secret?: string; onClose: () => void; onDone: (message: string) => void };

function TfaDialog({ enable, secret, onClose, onDone }: TfaDialogProps) {
  const user = useUser();
  const utils = trpc.useUtils();
  const update = trpc.auth.update_tfa.useMutation();
  const form = useForm({
    schema: updateTfaInput,
    initial: { code: '' },
    toInput: ({ code }) => ({ enable, code }),
    submit: (data) => update.mutateAsync(data),
    // The success shows in its own dialog.
    successMessage: () => null,
    onSuccess: async (res) => {
      await utils.auth.get_tfa.invalidate();
      onDone(res.message);
    },
    onError: (_err, f) => f.setValues({ code: '' }),
  });

  const formId = enable ? 'tfa-enable-form' : 'tfa-disable-form';
  return (
    <Modal
      title={enable ? 'Activate two-factor authentication' : 'Disable two-factor authentication'}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            className={`btn ${enable ? 'btn-primary' : 'btn-danger'}`}
            disabled={form.pending}
          >
            {form.pending ? 'Checking…' : enable ? 'Activate' : 'Disable'}
          </button>
        </>
      }
    >
      <FormAlerts form={form} />
      {enable && secret ? (
        <SecretQr secret={secret} username={user.username} />
      ) : (
        <p>Enter the current code from your authenticator app to turn two-factor authentication off.</p>
      )}
      <form id={formId} onSubmit={form.onSubmit} noValidate>
        <CodeField {...form.field('code', '2FA code')} autoFocus />
      </form>
    </Modal>
  );
}

/** The QR code of the otpauth:// link for the user's new secret, and the secret as text (also the first-run page's). */
export function SecretQr({ secret, username }: { secret: string; username: string }) {
  const [qr, setQr] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const uri = totpUri(secret, username);

  useEffect(() => {
    let live = true;
    QRCode.toDataURL(uri, { margin: 1, width: 200 })
      .then((url) => live && setQr(url))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [uri]);

  return (
    <div className="tfa-setup">
      <p>
        Scan this code with an authenticator app (Google Authenticator, Authy, 1Password…), then enter the 6-digit code
        it shows.
      </p>
      <div className="qr">
        {qr ? (
          <img src={qr} width={200} height={200} alt="QR code for your authenticator app" />
        ) : failed ? (
          <p>QR code unavailable: enter the key by hand.</p>
        ) : (
          <PageLoading />
        )}
      </div>
      <p className="secret-line">
        <span className="muted">Or enter this key by hand:</span> <code data-testid="tfa-secret">{secret}</code>
      </p>
    </div>
  );
}
