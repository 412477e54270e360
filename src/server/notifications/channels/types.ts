import type { AlertChannelType } from '../../../shared/schemas/alert-channels';
import type { OutboundPolicy } from './outbound';

/** One alert as every channel receives it. */
export type AlertMessage = {
  /** The notification's id: the webhook's delivery id, so a receiver can drop a repeat. */
  id: number;
  kind: string;
  message: string;
  /** Absolute link into the dashboard. */
  link: string;
  /** The node it concerns, when it concerns one. */
  node: string | null;
  /** ISO 8601, when it was raised. */
  time: string;
};

/** A channel's opened settings: the target and the secret, out of the sealed box. */
export type OpenedChannel = { type: AlertChannelType; target: string; secret: string };

export type ChannelEnv = {
  policy: OutboundPolicy;
  telegramApiBase: string;
  discordWebhookBase: string;
  signal?: AbortSignal;
};

/** Throws a DeliveryError (text for the owner) when the remote did not take it. */
export type ChannelAdapter = (channel: OpenedChannel, alert: AlertMessage, env: ChannelEnv) => Promise<void>;
