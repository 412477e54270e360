import type { z } from 'zod';
import type { deleteMasternodeInput, quickSetupInput, registerSubmitInput, updateAliasInput, updateValidatorFeeInput } from '../../shared/schemas/nodes';
import type { Context } from '../context';
import { fail } from '../errors';

type Ctx = Context;

// Being built in this branch series (issue 8); the procedures' shapes are final.
export async function deleteMasternode(_ctx: Ctx, _userId: number, _input: z.infer<typeof deleteMasternodeInput>): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function updateAlias(_ctx: Ctx, _userId: number, _input: z.infer<typeof updateAliasInput>): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function updateValidatorFee(_ctx: Ctx, _userId: number, _input: z.infer<typeof updateValidatorFeeInput>): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function registerSubmit(_ctx: Ctx, _userId: number, _input: z.infer<typeof registerSubmitInput>): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function quickSetup(_ctx: Ctx, _userId: number, _input: z.infer<typeof quickSetupInput>): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function getProposals(_ctx: Ctx, _userId: number, _mnId: string): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
