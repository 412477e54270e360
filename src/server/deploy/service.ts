import type { CheckBurnInput, DeployServerInput, DeployValidatorsInput } from '../../shared/schemas/deploy';
import type { Context } from '../context';
import type { User } from '../db/schema';
import { fail } from '../errors';
import { getDeployInfo as coinDeployInfo } from '../coins/service';
import { coinDetails } from '../coins/queries';
import { profileFor } from '../fleet/service';

type Ctx = Context;

// Being built in this branch series (issue 8); the procedures' shapes are final.
export function getDeployInfo(ctx: Ctx, coinId: string) {
  return coinDeployInfo(ctx, coinId, (coin) => profileFor(ctx.fleet.profiles, coin.family, coinDetails(coin).daemon).profile.run === 'simulator');
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
