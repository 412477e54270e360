import { useId, useState } from 'react';
import { useMutationState } from '@tanstack/react-query';
import { getMutationKey } from '@trpc/react-query';
import type { MasternodeDetail } from '../../shared/schemas/nodes';
import { ALIAS_MAX } from '../../shared/node-alias';
import { trpc } from '../app/trpc';
import { useToasts } from '../ui/Toasts';
import { updateAliasInput } from '../../shared/schemas/nodes';
import { withLabel } from '../ui/forms';
import { useForm } from '../ui/useForm';
import { ALIAS_ERROR, aliasToast, aliasValue } from './configState';

/**
 * Renames the node (section 4, "Alias edit"): optimistic in both caches that show the
 * name (this page and the portfolio list), put back as it was when the server refuses,
 * saved only by the Save button. Empty removes the alias.
 */
export function useAliasUpdate(mn: string) {
  const utils = trpc.useUtils();
  const toasts = useToasts();
  const put = (alias: string | null) => {
    utils.nodes.get_masternode.setData({ masternode: mn }, (old) =>
      old ? { ...old, data: { ...old.data, alias } } : old,
    );
    utils.nodes.get_masternodes.setData(undefined, (old) =>
      old ? { ...old, masternodes: old.masternodes.map((n) => (n.mn_id === mn ? { ...n, alias } : n)) } : old,
    );
  };
  return trpc.nodes.update_alias.useMutation({
    async onMutate({ alias }) {
      await Promise.all([utils.nodes.get_masternode.cancel({ masternode: mn }), utils.nodes.get_masternodes.cancel()]);
      const before = {
        one: utils.nodes.get_masternode.getData({ masternode: mn }),
        list: utils.nodes.get_masternodes.getData(),
      };
      put(alias);
      return before;
    },
    onError(_err, _input, before) {
      if (before) {
        utils.nodes.get_masternode.setData({ masternode: mn }, before.one);
        utils.nodes.get_masternodes.setData(undefined, before.list);
      }
      toasts.show(ALIAS_ERROR, { kind: 'error' });
    },
    onSuccess(_data, { alias }) {
      // Again: a refetch that landed while the call was out brought the old name back.
      put(alias);
      toasts.show(aliasToast(alias), { kind: 'success' });
    },
    onSettled() {
      void utils.nodes.get_masternode.invalidate({ masternode: mn });
      void utils.nodes.get_masternodes.invalidate();
    },
  });
}

/**
 * The node as it is shown: with the alias of a save under way, if one is. The cache
 * alone is not enough: a live status change refetches the node while the call is out,
 * and the old name came back in the middle of a save.
 */
export function useShownAlias<T extends { mn_id: string; alias: string | null }>(node: T): T {
  const pending = useMutationState({
    filters: { mutationKey: getMutationKey(trpc.nodes.update_alias), status: 'pending' },
    select: (m) => m.state.variables as { mn: string; alias: string | null } | undefined,
  }).filter((v) => v?.mn === node.mn_id);
  const last = pending[pending.length - 1];
  return last ? { ...node, alias: last.alias } : node;
}

/** The pencil button next to the name, and the inline form it opens (the server's schema checks it first). */
export function AliasEditor({ node }: { node: MasternodeDetail }) {
  const [editing, setEditing] = useState(false);
  const update = useAliasUpdate(node.mn_id);
  const inputId = useId();
  const form = useForm({
    schema: updateAliasInput,
    initial: { alias: '' },
    toInput: (v) => ({ mn: node.mn_id, alias: aliasValue(v.alias) }),
    // Optimistic: the form closes at once, the name shows; a refusal puts it back and says so.
    submit: async (data) => {
      setEditing(false);
      update.mutate(data);
    },
    successMessage: () => null,
  });

  if (!editing) {
    return (
      <button
        type="button"
        className="btn btn-ghost btn-sm alias-edit"
        onClick={() => {
          form.setValues({ alias: node.alias ?? '' });
          setEditing(true);
        }}
      >
        Edit alias
      </button>
    );
  }

  const problem = withLabel('Alias', form.errors.alias);
  return (
    <form
      className={`alias-form field${problem ? ' field-invalid' : ''}`}
      onSubmit={form.onSubmit}
      aria-label="Edit alias"
      noValidate
    >
      <label htmlFor={inputId}>Alias</label>
      <div className="alias-row">
        <input
          id={inputId}
          value={form.values.alias}
          // The limit is checked with a message too; this only stops typing past it.
          maxLength={ALIAS_MAX + 10}
          autoFocus
          placeholder={node.mn_id}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${inputId}-note`}
          onChange={(e) => form.setValues({ alias: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setEditing(false);
          }}
        />
        <button type="submit" className="btn btn-primary btn-sm">
          Save
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      <p id={`${inputId}-note`} className={problem ? 'field-error' : 'field-hint'}>
        {problem ??
          `Letters, digits, hyphens, underscores and spaces, up to ${ALIAS_MAX}. Leave it empty to remove the alias.`}
      </p>
    </form>
  );
}
