import { CheckIcon, CrossIcon } from '../../ui/Icons';
import { Alert } from '../../ui/Alert';
import type { DeployValidatorsOutput } from '../../../shared/schemas/deploy';
import { Deployed, Deploying } from '../DeployStatus';
import { GuideStepView } from '../GuideStep';
import type { GuideStep } from '../guide';
import { useServerCreated } from '../useServerCreated';

/** Step 5: each keystore file's outcome, then the first new validator's setup as on any deploy. */
export function ValidatorResults({ result, step, total, onMore }: { result: DeployValidatorsOutput; step: GuideStep; total: number; onMore: () => void }) {
  const { created, failed } = useServerCreated(result.server_id);
  const entries = Object.entries(result.data);
  return (
    <>
      <GuideStepView step={step} number={5} total={total}>
        {result.message && <Alert kind={result.success ? 'success' : entries.some(([, r]) => r.success) ? 'warning' : 'error'}>{result.message}</Alert>}
        <ul className="keystore-results" aria-label="Keystore results">
          {entries.map(([name, r]) => (
            <li key={name} className={r.success ? 'text-green' : 'text-red'} data-file={name}>
              {r.success ? <CheckIcon /> : <CrossIcon />} <strong>{name}</strong>: {r.message}
            </li>
          ))}
        </ul>
        {!result.server_id && (
          <button type="button" className="btn btn-primary" onClick={onMore}>
            Deploy more
          </button>
        )}
      </GuideStepView>
      {result.server_id &&
        (created ? (
          <Deployed serverId={result.server_id} atOnce={false} onAnother={onMore} anotherLabel="Deploy more" />
        ) : (
          <Deploying failed={failed} onAnother={onMore} anotherLabel="Deploy more" />
        ))}
    </>
  );
}
