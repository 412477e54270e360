import { useState } from 'react';
import {
  createApiKeyInput,
  saveApiKeyInput,
  type ApiKeyRow,
  type CreateApiKeyOutput,
} from '../../shared/schemas/apikeys';
import type { z } from 'zod';
import { trpc } from '../app/trpc';
import { PageHeader } from '../layout/DashboardShell';
import { Alert, FormAlerts } from '../ui/Alert';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { CopyBlock } from '../ui/CopyButton';
import { EmptyState } from '../ui/EmptyState';
import { TextField } from '../ui/Field';
import { Modal } from '../ui/Modal';
import { QueryState } from '../ui/QueryState';
import { TableScroll } from '../ui/TableScroll';
import { useForm } from '../ui/useForm';
import './account.css';

type Dialog =
  | { kind: 'add' }
  | { kind: 'created'; key: string; prefix: string }
  | { kind: 'manage'; row: ApiKeyRow }
  | { kind: 'delete'; row: ApiKeyRow }
  | null;

const ALLOWED_HINT =
  'Comma-separated IP addresses or ranges, e.g. 203.0.113.7, 2001:db8::/32. Leave empty to allow any address (suits the web wallet).';

function when(ms: number | null): string {
  return ms === null ? 'Never' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/** /dashboard/api: the user's keys, with the add, manage and delete dialogs. */
export function ApiKeys() {
  const keys = trpc.apikeys.get_api_keys.useQuery();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const add = (
    <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'add' })}>
      Add API key
    </button>
  );

  return (
    <>
      <PageHeader title="API" />
      <section className="card">
        <QueryState query={keys} what="Your API keys" loadingLabel="Loading API keys">
          {(data) =>
            data.keys.length === 0 ? (
              <EmptyState title="You don't have any API keys" action={add}>
                API keys let your scripts read and manage your nodes, optionally only from your own IP addresses.
              </EmptyState>
            ) : (
              <>
                <div className="api-keys-head">{add}</div>
                <TableScroll>
                  <table className="table" aria-label="API keys">
                    <thead>
                      <tr>
                        <th>Description</th>
                        <th>Key</th>
                        <th>Allowed IPs</th>
                        <th>Access</th>
                        <th>Last used</th>
                        <th />
                      </tr>
                    </thead>
                    <tbody>
                      {data.keys.map((k) => (
                        <tr key={k.auth_key} data-testid="api-key-row">
                          <td>{k.name}</td>
                          <td>
                            <code className="api-key-prefix">{k.auth_key}_…</code>
                          </td>
                          <td>{k.allowed ? k.allowed.split(',').join(', ') : 'Any address'}</td>
                          <td>{k.read_only ? 'Read only' : 'Read and write'}</td>
                          <td>
                            {when(k.last_used_at)}
                            {k.last_used_ip && <span className="muted"> from {k.last_used_ip}</span>}
                          </td>
                          <td className="api-key-actions">
                            <button
                              type="button"
                              className="btn btn-secondary btn-sm"
                              onClick={() => setDialog({ kind: 'manage', row: k })}
                            >
                              Manage
                            </button>{' '}
                            <button
                              type="button"
                              className="btn btn-danger btn-sm"
                              onClick={() => setDialog({ kind: 'delete', row: k })}
                            >
                              Delete
                            </button>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              </>
            )
          }
        </QueryState>
      </section>
      {dialog?.kind === 'add' && (
        <KeyDialog onClose={close} onCreated={(key, prefix) => setDialog({ kind: 'created', key, prefix })} />
      )}
      {dialog?.kind === 'manage' && <KeyDialog row={dialog.row} onClose={close} />}
      {dialog?.kind === 'delete' && <DeleteDialog row={dialog.row} onClose={close} />}
      {dialog?.kind === 'created' && (
        <Modal
          title="API key created"
          onClose={close}
          footer={
            <button type="button" className="btn btn-primary" onClick={close}>
              I have copied it
            </button>
          }
        >
          <Alert kind="warning">
            Copy the key now: it is shown only this once. Afterwards only its beginning is listed.
          </Alert>
          <CopyBlock label={`API key ${dialog.prefix}`} text={dialog.key} />
          <CopyBlock label="The header your scripts send" text={`Authorization: Bearer ${dialog.key}`} />
        </Modal>
      )}
    </>
  );
}

/** Add (no `row`) or manage (`row`) a key: description, allowed addresses, read-only. */
function KeyDialog({
  row,
  onClose,
  onCreated,
}: {
  row?: ApiKeyRow;
  onClose: () => void;
  onCreated?: (key: string, prefix: string) => void;
}) {
  const utils = trpc.useUtils();
  const create = trpc.apikeys.create_api_key.useMutation();
  const save = trpc.apikeys.save_api_key.useMutation();
  const [readOnly, setReadOnly] = useState(row?.read_only ?? false);
  const form = useForm({
    schema: row ? saveApiKeyInput : createApiKeyInput,
    initial: { name: row?.name ?? '', allowed: row?.allowed.split(',').join(', ') ?? '' },
    toInput: (v) => ({ ...v, read_only: readOnly, ...(row ? { auth_key: row.auth_key } : {}) }),
    submit: (data) =>
      row
        ? save.mutateAsync(data as z.output<typeof saveApiKeyInput>)
        : create.mutateAsync(data as z.output<typeof createApiKeyInput>),
    successMessage: () => null,
    onSuccess: async (res) => {
      await utils.apikeys.get_api_keys.invalidate();
      const made = res as Partial<CreateApiKeyOutput>;
      if (made.key && made.auth_key && onCreated) onCreated(made.key, made.auth_key);
      else onClose();
    },
  });
  const formId = row ? 'api-key-manage-form' : 'api-key-add-form';
  return (
    <Modal
      title={row ? 'Manage API key' : 'Add API key'}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={form.pending}>
            {form.pending ? 'Saving…' : row ? 'Save' : 'Create key'}
          </button>
        </>
      }
    >
      <FormAlerts form={form} />
      <form id={formId} onSubmit={form.onSubmit} noValidate>
        <TextField {...form.field('name', 'Description')} maxLength={60} autoFocus />
        <TextField {...form.field('allowed', 'Allowed IP addresses')} hint={ALLOWED_HINT} />
        <label className="api-key-check">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> Read only (the
          key may only read, never change anything)
        </label>
      </form>
    </Modal>
  );
}

function DeleteDialog({ row, onClose }: { row: ApiKeyRow; onClose: () => void }) {
  const utils = trpc.useUtils();
  const del = trpc.apikeys.delete_api_key.useMutation();
  return (
    <ConfirmDialog
      title="Delete API key"
      effect={
        <>
          Delete the key <strong>{row.name}</strong> (<code>{row.auth_key}_…</code>)? Scripts using it are refused from
          their next call.
        </>
      }
      confirmLabel="Delete"
      busyLabel="Deleting…"
      danger
      onCancel={onClose}
      onConfirm={async () => {
        await del.mutateAsync({ auth_key: row.auth_key });
        await utils.apikeys.get_api_keys.invalidate();
        onClose();
      }}
    />
  );
}
