import type { CommonInfo } from '../../shared/schemas/auth';
import { toUsdNumber } from '../../shared/money';
import type { Context } from '../rpc/context';
import type { User } from '../db/schema';
import { fail, MESSAGES } from '../kernel/errors';
import { getBanner } from '../operator/platform';
import { authPorts } from './ports';
import { recordVisit } from './queries';

/** Page visits kept per user: enough for "recently viewed", bounded whatever a script sends. */
export const MAX_VISITS_PER_USER = 200;

export async function commonInfo(
  ctx: Pick<Context, 'db' | 'config'> & { maintenance: boolean },
  user: User,
): Promise<CommonInfo> {
  const [balance, banner] = await Promise.all([authPorts().balanceOf(ctx.db, user.id), getBanner(ctx.db)]);
  const { maintenance } = ctx;
  return {
    success: true,
    maintenance,
    info: {
      user_id: user.id,
      username: user.username,
      balance: toUsdNumber(balance),
      email: user.email,
      verified: user.verified_at !== null,
      created_at: new Date(user.created_at).toISOString(),
      stripe_public_key: ctx.config.stripePublicKey,
      room_id: user.room_id,
      // No mobile companion app exists yet to scan a login QR; see docs/decisions.md "Readings of the spec".
      qr_url: '',
      // The operator's banner is for everyone and comes first (src/server/operator/README.md).
      alert:
        banner ??
        (user.verified_at === null
          ? { bg: 'warning', text: 'Please verify your email address.', link: '/dashboard/settings' }
          : null),
    },
  };
}

export async function visited(ctx: Pick<Context, 'db' | 'limiter'>, user: User, fullPath: string) {
  if (!ctx.limiter.hit('visitedPerUser', user.id)) fail('TOO_MANY_REQUESTS', MESSAGES.tooMany);
  await recordVisit(ctx.db, user.id, fullPath, MAX_VISITS_PER_USER);
  return { success: true as const };
}
