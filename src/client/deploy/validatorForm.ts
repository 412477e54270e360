import { evmAddressError } from '../../shared/evm-address';
import { keystoreCountProblem, PASSWORD_REQUIRED } from '../../shared/validator-upload';

/**
 * The validator upload form's own checks (section 5) with their exact messages. `tried`
 * is set by the first submit: before it, an empty file list is not an error yet.
 */
export type ValidatorFormValues = { files: number; password: string; feeRecipient: string; tried: boolean };
export type ValidatorProblems = Partial<Record<'keystores' | 'password' | 'fee_recipient', string>>;

export const NETWORK_FAILURE = 'Something went wrong. Please try again or contact support.';

export { ADDRESS_REQUIRED, INVALID_ADDRESS } from '../../shared/evm-address';

/** 'Address required', 'Invalid address' or the EIP-55 checksum message for a fee recipient, or null. */
export function feeRecipientProblem(value: string): string | null {
  return evmAddressError(value);
}

export function validatorProblems(v: ValidatorFormValues): ValidatorProblems {
  const out: ValidatorProblems = {};
  // Too many files shows as soon as they are chosen; none only after a try.
  const files = v.files > 0 || v.tried ? keystoreCountProblem(v.files) : null;
  if (files) out.keystores = files;
  if (!v.tried) return out;
  if (!v.password) out.password = PASSWORD_REQUIRED;
  const fee = feeRecipientProblem(v.feeRecipient);
  if (fee) out.fee_recipient = fee;
  return out;
}
