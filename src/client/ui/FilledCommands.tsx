import { useState, type ReactNode } from 'react';
import { TextField } from './Field';
import { waitingSentence } from './command-waiting';

export type CommandText = { label: string; text: string };

/**
 * Values only the customer has, which a command for their own wallet needs: the guides'
 * `<your new address>`, the registration's `<ownerAddress>`. Each gets a field; the
 * command shows once they are typed, so what is copied runs as it is and no `<…>` is left
 * to edit by hand. Nothing typed here leaves the page.
 */
const CUSTOMER_SLOT =
  /<(your [a-z -]{1,40}|ownerAddress|votingAddress|payoutAddress|collateralAddress|collateralHash|collateralIndex|signMessage|signature)>/g;
/** Any other `<…>`: a value the platform has not got yet (the node is not placed, or has no key yet). */
const OTHER_SLOT = /<[A-Za-z][A-Za-z ]{0,40}>/;

const slotsOf = (text: string) => [...text.matchAll(CUSTOMER_SLOT)].map((m) => m[1]);
/** Where a slot's name does not read as its field's label. */
const LABELS: Record<string, string> = {
  signMessage: 'Message to sign (register_prepare printed it)',
  collateralHash: 'Collateral transaction ID',
  collateralIndex: 'Collateral output index',
};
/** "your new address" → "Your new address", "ownerAddress" → "Owner address". */
const labelOf = (slot: string) => {
  if (LABELS[slot]) return LABELS[slot];
  const words = slot.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words[0].toUpperCase() + words.slice(1);
};
/** "a", "a and b", "a, b and c". */
const list = (items: string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

export function FilledCommands({
  commands,
  render,
}: {
  commands: CommandText[];
  render: (command: CommandText) => ReactNode;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const slots = [...new Set(commands.flatMap((c) => slotsOf(c.text)))];
  return (
    <>
      {slots.length > 0 && (
        <div className="command-fill">
          <p className="muted small">Your values below only fill in the commands: they stay on this page.</p>
          {slots.map((slot) => (
            <TextField
              key={slot}
              label={labelOf(slot)}
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              value={values[slot] ?? ''}
              onValueChange={(v) => setValues({ ...values, [slot]: v.trim() })}
            />
          ))}
        </div>
      )}
      {commands.map((c) => {
        const missing = slotsOf(c.text).filter((slot) => !values[slot]);
        if (missing.length)
          return (
            <p key={c.label + c.text} className="command-waiting muted small">
              {c.label}: fill in {list(missing.map((s) => labelOf(s).toLowerCase()))} above to see the command.
            </p>
          );
        const text = c.text.replace(CUSTOMER_SLOT, (_, slot: string) => values[slot]);
        if (OTHER_SLOT.test(text))
          return (
            <p key={c.label + c.text} className="command-waiting muted small">
              {waitingSentence(c.label, text)}
            </p>
          );
        return <div key={c.label + c.text}>{render({ ...c, text })}</div>;
      })}
    </>
  );
}
