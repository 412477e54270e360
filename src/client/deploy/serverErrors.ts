import { FAMILIES, FAMILY, type WizardKind } from '../../shared/families';
import { PAYLOAD_FIELDS, type PayloadField } from '../../shared/schemas/deploy-payload';

/**
 * Which field a failed deploy's message goes under (section 8). The server names the
 * field when it knows it (`error.data.field`); a field this wizard does not show, or
 * none, falls back to the spec's rules: in the dip003 form the message's words pick the
 * payee or BLS field, validators show it above the form, every other wizard under its
 * entry field.
 */
/** Sent by a wizard but never typed into it: a checkbox, and the output id check_burn found. */
const NOT_SHOWN = ['migrate', 'burn_output_id'] as const;
export type WizardField = Exclude<PayloadField, (typeof NOT_SHOWN)[number]>;

const WIZARD_FIELDS = PAYLOAD_FIELDS.filter(
  (f): f is WizardField => !(NOT_SHOWN as readonly PayloadField[]).includes(f),
);

/** The fields a wizard shows: what the deploys of its families send (families.ts `fields`). */
function wizardFields(wizard: WizardKind): readonly WizardField[] {
  const sent = new Set(FAMILIES.filter((f) => FAMILY[f].wizard === wizard).flatMap((f) => FAMILY[f].fields));
  return WIZARD_FIELDS.filter((f) => sent.has(f));
}

/** The field for a server message, or null for the form's general error. */
export function serverErrorField(wizard: WizardKind, message: string, field?: string | null): WizardField | null {
  // The validator form shows a fee_address error under its one fee recipient field.
  const named = field === 'fee_address' ? 'fee_recipient' : field;
  const own = wizardFields(wizard).find((f) => f === named);
  if (own) return own;
  if (wizard === 'validator') return null;
  if (wizard === 'dip003') {
    const m = message.toLowerCase();
    if (m.includes('incorrect bls key')) return 'blsKey';
    if (m.includes('is not valid') || m.includes('address required')) return 'payee';
    return 'txid';
  }
  if (wizard === 'neuron') return 'rewardAddress';
  return 'txid';
}
