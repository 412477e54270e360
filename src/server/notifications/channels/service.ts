import type { AddAlertChannelInput, AlertChannel, AlertChannelType } from '../../../shared/schemas/alert-channels';
import type { AppDeps } from '../../rpc/context';
import type { AlertChannelRow } from '../../db/schema';
import { fail } from '../../kernel/errors';
import { adapters, channelEnv } from './adapters';
import { discordWebhookId } from './discord';
import { DELIVERY_TIMEOUT_MS, urlProblem } from './outbound';
import {
  countChannels,
  deleteChannel,
  findOwnChannel,
  insertChannel,
  listChannels,
  MAX_CHANNELS_PER_USER,
  setChannelEnabled,
} from './queries';
import { openChannelSecret, sealChannelSecret } from './seal';
import { newWebhookSecret } from './webhook';

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets'>;

const NOT_FOUND = 'This alert channel does not exist.';

function shown(r: AlertChannelRow): AlertChannel {
  return {
    id: r.id,
    type: r.type as AlertChannelType,
    target: r.target,
    enabled: r.enabled === 1,
    failures: r.failures,
    last_error: r.last_error,
    disabled_reason: r.disabled_reason,
    created_at: r.created_at,
  };
}

export async function getAlertChannels(deps: Pick<Deps, 'db'>, userId: number) {
  return { success: true as const, channels: (await listChannels(deps.db, userId)).map(shown) };
}

/** What is stored for a new channel (target shown again, secret sealed), after its input is checked. */
function prepare(deps: Deps, input: AddAlertChannelInput): { target: string; secret: string; shownSecret?: string } {
  if (input.type === 'webhook') {
    const problem = urlProblem(input.url, { allowInternal: deps.config.alertWebhookAllowPrivate });
    if (problem) fail('BAD_REQUEST', problem, 'url');
    const secret = newWebhookSecret();
    return { target: input.url, secret, shownSecret: secret };
  }
  if (input.type === 'telegram') return { target: input.chat_id, secret: input.bot_token };
  const id = discordWebhookId(input.url, deps.config.discordWebhookBase);
  if (!id)
    fail(
      'BAD_REQUEST',
      `Enter a Discord webhook URL such as ${deps.config.discordWebhookBase}/123456789012345678/abc… (channel settings, Integrations, Webhooks).`,
      'url',
    );
  // The URL holds the webhook's token: sealed, and only its id is shown again.
  return { target: id, secret: input.url };
}

/** Adds a channel, on; a webhook's signing secret is in the answer this once. */
export async function addAlertChannel(deps: Deps, userId: number, input: AddAlertChannelInput) {
  const p = prepare(deps, input);
  const row = await deps.db.transaction().execute(async (trx) => {
    if ((await countChannels(trx, userId)) >= MAX_CHANNELS_PER_USER)
      fail('BAD_REQUEST', `You can have at most ${MAX_CHANNELS_PER_USER} alert channels.`);
    return insertChannel(trx, {
      user_id: userId,
      type: input.type,
      target: p.target,
      secret: sealChannelSecret(deps.secrets, userId, input.type, p.secret),
      now: Date.now(),
    });
  });
  return { success: true as const, channel: shown(row), ...(p.shownSecret ? { secret: p.shownSecret } : {}) };
}

/** Turns a channel on (its failure count starts again) or off. */
export async function saveAlertChannel(deps: Pick<Deps, 'db'>, userId: number, id: number, enabled: boolean) {
  const row = await setChannelEnabled(deps.db, userId, id, enabled, Date.now());
  if (!row) fail('NOT_FOUND', NOT_FOUND);
  return { success: true as const, channel: shown(row) };
}

export async function removeAlertChannel(deps: Pick<Deps, 'db'>, userId: number, id: number) {
  if (!(await deleteChannel(deps.db, userId, id))) fail('NOT_FOUND', NOT_FOUND);
  return { success: true as const };
}

export const TOO_MANY_TESTS = 'Too many test alerts. Please wait a few minutes and try again.';

/**
 * Sends a test alert now and answers whether the remote took it, with its error when
 * not. Counts no failure: the owner is trying it out.
 */
export async function testAlertChannel(deps: Deps & Pick<AppDeps, 'limiter'>, userId: number, id: number) {
  const row = await findOwnChannel(deps.db, userId, id);
  if (!row) fail('NOT_FOUND', NOT_FOUND);
  // Counted once the channel is known to be theirs: a wrong id sends nothing.
  if (!deps.limiter.hit('alertTestsPerAccount', userId)) fail('TOO_MANY_REQUESTS', TOO_MANY_TESTS);
  const type = row.type as AlertChannelType;
  const alert = {
    id: 0,
    kind: 'test',
    message: 'This is a test alert from Nodekeep: this channel works.',
    link: `${deps.config.publicUrl}/dashboard/notifications`,
    node: null,
    time: new Date().toISOString(),
  };
  try {
    await adapters[type](
      { type, target: row.target, secret: openChannelSecret(deps.secrets, row) },
      alert,
      channelEnv(deps.config, AbortSignal.timeout(DELIVERY_TIMEOUT_MS + 1000)),
    );
    return { success: true, message: 'Test alert sent.' };
  } catch (err) {
    return {
      success: false,
      message: `The test alert was not delivered: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}
