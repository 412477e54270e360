import { useRef, useState } from 'react';
import { deployProblem } from '../../shared/deploy-rules';
import type { DeployInfoCoin, DeployServerInput, DeployServerOutput, Plan } from '../../shared/schemas/deploy';
import { errorCode, errorField, errorMessage } from '../app/errors';
import { trpc } from '../app/trpc';
import { wizardOf } from './flow';
import { serverErrorField, type WizardField } from './serverErrors';

export type FieldErrors = Partial<Record<WizardField, string>>;

/**
 * Sends a deploy for the JSON wizards: section 5's checks first (the same function the
 * server runs), then deploy_server. A message goes under the field it belongs to
 * (serverErrors.ts) or, without one, above the form. A second send while one is in
 * flight is ignored.
 */
export function useDeploy(coin: DeployInfoCoin, plan: Plan, onDeployed: (result: DeployServerOutput) => void) {
  const mutation = trpc.deploy.deploy_server.useMutation();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);
  const wizard = wizardOf(coin);

  async function send(input: Omit<DeployServerInput, 'currency' | 'package'>) {
    if (inFlight.current) return;
    setError(null);
    const problem = deployProblem(coin, input);
    if (problem) {
      const field = serverErrorField(wizard, problem.message, problem.field);
      setErrors(field ? { [field]: problem.message } : {});
      if (!field) setError(problem.message);
      return;
    }
    setErrors({});
    inFlight.current = true;
    try {
      onDeployed(await mutation.mutateAsync({ ...input, currency: coin.id, package: plan }));
    } catch (err) {
      const message = errorMessage(err);
      // FORBIDDEN is the account's own limit (free accounts, the node cap), never a field's
      // mistake: shown above the form, so a valid address is not marked wrong.
      const field = errorCode(err) === 'FORBIDDEN' ? null : serverErrorField(wizard, message, errorField(err));
      if (field) setErrors({ [field]: message });
      else setError(message);
    } finally {
      inFlight.current = false;
    }
  }

  /** Typing in a field clears its message. */
  function clear(field: WizardField) {
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  }

  return { send, clear, errors, error, pending: mutation.isPending };
}
