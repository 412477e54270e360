import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CopyButton } from '../ui/CopyButton';
import { FilledCommands } from '../ui/FilledCommands';
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

/** The step's commands, the customer's own values asked for where a command needs them. */
function Commands({ commands }: { commands: Command[] }) {
  return <FilledCommands commands={commands} render={(c) => <CommandLine command={c} />} />;
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
