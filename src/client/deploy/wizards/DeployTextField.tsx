import { TextField, type FieldProps } from '../../ui/Field';
import type { FieldErrors } from '../useDeploy';
import type { WizardField } from '../serverErrors';

/**
 * A wizard's text field tied to the deploy: it shows the message that belongs under it
 * (section 8) and clears that message as soon as the customer types. Codes and addresses
 * are not words: no autocompletion, no spell check.
 */
export function DeployTextField({
  deploy,
  field,
  onValueChange,
  ...rest
}: Omit<FieldProps, 'error'> & { deploy: { errors: FieldErrors; clear: (f: WizardField) => void }; field: WizardField }) {
  return (
    <TextField
      autoComplete="off"
      spellCheck={false}
      {...rest}
      onValueChange={(v) => {
        onValueChange(v);
        deploy.clear(field);
      }}
      error={deploy.errors[field]}
    />
  );
}
