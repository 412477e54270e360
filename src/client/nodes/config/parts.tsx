import type { ReactNode } from 'react';
import type { NodeSetup } from '../../../shared/schemas/nodes';
import { Alert } from '../../ui/Alert';
import { CopyBlock } from '../../ui/CopyButton';
import { FilledCommands } from '../../ui/FilledCommands';

/** The card every configuration view sits in. */
export function ConfigCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card config-view" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The commands the customer copies into their own wallet, each with its copy button. */
export function Commands({ commands }: { commands: NodeSetup['commands'] }) {
  return (
    <div className="config-commands">
      <FilledCommands commands={commands} render={(c) => <CopyBlock label={c.label} text={c.text} />} />
    </div>
  );
}

/** Section 4: the start step is done. */
export function Congratulations() {
  return (
    <Alert kind="success">
      <strong>Congratulations</strong> Your node has been successfully submitted to the network. It may take up to 15
      minutes to start running.
    </Alert>
  );
}
