import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { CopyButton } from '../ui/CopyButton';
import { TextField } from '../ui/Field';
import type { Command, GuideStep } from './guide';

/** One guide step: its title and counter, its text, the informational checklist, the commands, then the step's own form. */
export function GuideStepView({ step, number, total, children }: { step: GuideStep; number: number; total: number; children?: ReactNode }) {
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  // A new step is announced: focus moves to its title (keyboard and screen-reader users start there).
  useEffect(() => {
    title.current?.focus({ preventScroll: true });
  }, [number]);
  return (
    <section className="card guide-step" aria-labelledby={titleId} data-step={number}>
      <p className="guide-counter muted small">
        Step {number} of {total}
      </p>
      <h2 id={titleId} ref={title} tabIndex={-1}>
        {step.title}
      </h2>
      {step.text.map((t) => (
        <p key={t}>{t}</p>
      ))}
      {step.checklist && (
        // Prerequisites are a reminder: the boxes are the customer's own, nothing waits on them.
        <ul className="guide-checklist">
          {step.checklist.map((item) => (
            <li key={item}>
              <label>
                <input type="checkbox" /> {item}
              </label>
            </li>
          ))}
        </ul>
      )}
      <Commands commands={step.commands} />
      {children}
    </section>
  );
}

/** A value of the customer's own a command needs: `<your new address>` in the guide's data. */
const SLOT = /<(your [a-z ]{1,40})>/g;
const slotsOf = (text: string) => [...text.matchAll(SLOT)].map((m) => m[1]);
const sentence = (slot: string) => slot[0].toUpperCase() + slot.slice(1);

/**
 * The step's commands. A command that needs a value only the customer has (their new
 * address) shows a field for it and the command once it is typed, never a `<…>` to edit
 * by hand: what is copied runs as it is. Nothing typed here leaves the page.
 */
function Commands({ commands }: { commands: Command[] }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const slots = [...new Set(commands.flatMap((c) => slotsOf(c.text)))];
  return (
    <>
      {slots.length > 0 && (
        <div className="guide-fill">
          {slots.map((slot) => (
            <TextField
              key={slot}
              label={sentence(slot)}
              hint="Only to fill in the command below: it stays on this page."
              autoComplete="off"
              spellCheck={false}
              maxLength={120}
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
            <p key={c.text} className="guide-command muted small">
              {c.label}: type {missing.join(' and ')} above to see the command.
            </p>
          );
        return <CommandLine key={c.text} command={{ ...c, text: c.text.replace(SLOT, (_, slot: string) => values[slot]) }} />;
      })}
    </>
  );
}

export function CommandLine({ command }: { command: Command }) {
  const code = useRef<HTMLElement>(null);
  return (
    <div className="guide-command">
      <span className="guide-command-label small">{command.label}</span>
      <div className="guide-command-row">
        <code ref={code} className="guide-command-text">
          {command.text}
        </code>
        <CopyButton text={command.text} label={`Copy: ${command.text}`} target={code} />
      </div>
    </div>
  );
}

/** Previous and the step's forward action. `next` is a label and handler, or the form's submit button. */
/** Previous, and the step's Deploy button (busy while the deploy is sent). */
export function DeployNav({ onPrevious, pending, busyLabel = 'Deploying…' }: { onPrevious: () => void; pending: boolean; busyLabel?: string }) {
  return (
    <WizardNav
      onPrevious={onPrevious}
      next={
        <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending || undefined}>
          {pending ? busyLabel : 'Deploy'}
        </button>
      }
    />
  );
}

export function WizardNav({ onPrevious, next }: { onPrevious: () => void; next: ReactNode }) {
  return (
    <div className="wizard-nav">
      <button type="button" className="btn btn-secondary" onClick={onPrevious}>
        Previous
      </button>
      {next}
    </div>
  );
}
