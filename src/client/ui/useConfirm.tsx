import { useState, type ReactNode } from 'react';
import { ConfirmDialog, type ConfirmProps } from './ConfirmDialog';

export type Question<R> = Omit<ConfirmProps, 'onConfirm' | 'onCancel' | 'form'> & {
  /** The action itself, run only on Confirm. */
  action: () => Promise<R>;
};

type Asked = Question<unknown> & { resolve: (result: unknown) => void };

/**
 * Asks before an action, where the action starts in code that wants its result (a form's
 * submit): `ask` opens the confirmation and resolves with the action's result once it
 * succeeded, or null when the operator cancelled. A failure stays in the dialog (another
 * try or Cancel), so the caller never sees it. Render `dialog` once in the component.
 */
export function useConfirm(): { ask: <R>(q: Question<R>) => Promise<R | null>; dialog: ReactNode } {
  const [asked, setAsked] = useState<Asked | null>(null);
  const ask = <R,>(q: Question<R>) =>
    new Promise<R | null>((resolve) => setAsked({ ...q, resolve: resolve as (r: unknown) => void }));
  const dialog = asked && (
    <ConfirmDialog
      {...asked}
      onCancel={() => {
        asked.resolve(null);
        setAsked(null);
      }}
      onConfirm={async () => {
        const result = await asked.action();
        asked.resolve(result);
        setAsked(null);
      }}
    />
  );
  return { ask, dialog };
}
