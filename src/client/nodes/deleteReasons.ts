import { DELETE_REASON_MAX, DELETE_REASONS } from '../../shared/schemas/nodes';

/** The delete dialog's rules (deployment-and-nodes.md sections 4 and 5, "Delete"). */

export type DeleteReason = (typeof DELETE_REASONS)[number];
export const OTHER: DeleteReason = 'Other';

/** Which hint a reason shows: the first-reward advice, or an offer of live chat. */
export type ReasonHint = 'rewards' | 'chat' | null;

const CHAT_REASONS: ReadonlySet<string> = new Set([
  'There is a problem with the node',
  "I didn't like your services",
  "I'm not satisfied with the support",
]);

export function reasonHint(reason: string): ReasonHint {
  if (reason === "I'm not receiving rewards") return 'rewards';
  return CHAT_REASONS.has(reason) ? 'chat' : null;
}

/** Support's live chat hours, UTC (section 1). */
export const CHAT_HOURS = { from: 7, to: 21 } as const;
export const chatOpen = (now: Date) => now.getUTCHours() >= CHAT_HOURS.from && now.getUTCHours() < CHAT_HOURS.to;

/**
 * What delete_masternode receives as `reason`: the chosen reason, or for Other the
 * customer's own words; null while nothing usable is chosen (the request is not sent).
 */
export function deleteReasonText(reason: string, otherText: string): string | null {
  if (!reason) return null;
  if (reason !== OTHER) return (DELETE_REASONS as readonly string[]).includes(reason) ? reason : null;
  const text = otherText.trim();
  return text && text.length <= DELETE_REASON_MAX ? text : null;
}

/** How long the success stays on screen before the portfolio (section 9). */
export const DELETE_REDIRECT_MS = 300;
