import { evmAddressError } from '../../shared/evm-address';
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

export { ADDRESS_REQUIRED, INVALID_ADDRESS } from '../../shared/evm-address';

/** 'Address required' / 'Invalid address' for a fee recipient (EIP-55 checked when mixed case), or null. */
export function feeRecipientProblem(value: string): string | null {
  return evmAddressError(value);
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
