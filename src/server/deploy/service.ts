import type { CheckBurnInput, DeployServerInput, DeployValidatorsInput } from '../../shared/schemas/deploy';
import type { Context } from '../context';
import type { User } from '../db/schema';
import { fail } from '../errors';

type Ctx = Context;

// Being built in this branch series (issue 8); the procedures' shapes are final.
export async function getDeployInfo(_ctx: Ctx, _coinId: string): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function deployServer(_ctx: Ctx, _user: User, _input: DeployServerInput): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function deployValidators(_ctx: Ctx, _user: User, _input: DeployValidatorsInput): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function checkBurn(_ctx: Ctx, _input: CheckBurnInput): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
export async function getBuildingServers(_ctx: Ctx, _userId: number): Promise<never> {
  fail('SERVICE_UNAVAILABLE', 'Not available.');
}
