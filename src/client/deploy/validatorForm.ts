import { MAX_KEYSTORES } from '../../shared/schemas/deploy';

/**
 * The validator upload form's own checks (section 5) with their exact messages. `tried`
 * is set by the first submit: before it, an empty file list is not an error yet.
 */
export type ValidatorFormValues = { files: number; password: string; feeRecipient: string; tried: boolean };
export type ValidatorProblems = Partial<Record<'keystores' | 'password' | 'fee_recipient', string>>;

export const TOO_MANY_FILES = 'You can upload up to 10 files';
export const NO_FILES = 'Please select at least one file';
export const PASSWORD_REQUIRED = 'Password required';
export const NETWORK_FAILURE = 'Something went wrong. Please try again or contact support.';

// TODO(lead): use shared/evm-address
export const ADDRESS_REQUIRED = 'Address required';
export const INVALID_ADDRESS = 'Invalid address';
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** 'Address required' / 'Invalid address' for a fee recipient, or null. */
export function feeRecipientProblem(value: string): string | null {
  const v = value.trim();
  if (!v) return ADDRESS_REQUIRED;
  return EVM_ADDRESS.test(v) ? null : INVALID_ADDRESS;
}

export function validatorProblems(v: ValidatorFormValues): ValidatorProblems {
  const out: ValidatorProblems = {};
  if (v.files > MAX_KEYSTORES) out.keystores = TOO_MANY_FILES;
  else if (v.files === 0 && v.tried) out.keystores = NO_FILES;
  if (!v.tried) return out;
  if (!v.password) out.password = PASSWORD_REQUIRED;
  const fee = feeRecipientProblem(v.feeRecipient);
  if (fee) out.fee_recipient = fee;
  return out;
}
