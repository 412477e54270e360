import { z } from 'zod';
import { email, opaqueToken } from './auth';

/** Longest chat message: a few paragraphs, never a pasted log file. */
export const SUPPORT_MESSAGE_MAX = 2000;

/** A chat message as typed: trimmed, not empty, bounded. */
export const supportBody = z
  .string()
  .trim()
  .min(1, 'Type a message first.')
  .max(SUPPORT_MESSAGE_MAX, `must be at most ${SUPPORT_MESSAGE_MAX.toLocaleString('en-US')} characters`);

/** Whether support is answering now, and its hours ("07:00–21:00 UTC"). */
export const supportStatus = z.object({ open: z.boolean(), hours: z.string() });
export type SupportStatus = z.infer<typeof supportStatus>;

export const supportMessage = z.object({
  id: z.number(),
  /** 'support' for the operator's answers, 'you' for the customer's (or visitor's) own. */
  from: z.enum(['you', 'support']),
  body: z.string(),
  at: z.string(),
  /** Left outside support hours: answered by email. */
  outside_hours: z.boolean(),
});
export type SupportMessage = z.infer<typeof supportMessage>;

/**
 * A customer's or visitor's own conversation: its messages, oldest first. `held`: a
 * visitor's conversation waiting for them to confirm `email` from the mailed link before
 * it reaches the team (`expired`: the link no longer works).
 */
export const supportThread = z.object({
  messages: z.array(supportMessage),
  unread: z.number(),
  held: z.object({ email: z.string(), expired: z.boolean() }).optional(),
});
export type SupportThread = z.infer<typeof supportThread>;

export const supportSendInput = z.object({ body: supportBody }).strict();

/** A visitor's first message: the email the answer goes to, and the message. */
export const supportVisitorStartInput = z.object({ email, body: supportBody }).strict();
/**
 * The visitor's token, kept by their browser: it is their only key to the conversation.
 * `held`: it reaches the team once they confirm their email from the mailed link.
 */
export const supportVisitorStartOutput = z.object({ token: z.string(), held: z.boolean() });

export const supportVisitorInput = z.object({ token: opaqueToken }).strict();
export const supportVisitorSendInput = z.object({ token: opaqueToken, body: supportBody }).strict();

/** The page of the mailed link that confirms a held conversation's email (a client route; the token in `?t=`). */
export const SUPPORT_CONFIRM_PATH = '/support/confirm';
/** The token of the link that confirms a held conversation's email. */
export const supportVisitorConfirmInput = z.object({ token: opaqueToken }).strict();
export const supportVisitorConfirmOutput = z.object({ status: z.enum(['confirmed', 'already_confirmed']) });
export type SupportVisitorConfirmOutput = z.infer<typeof supportVisitorConfirmOutput>;

// The console's inbox.

export const supportInboxItem = z.object({
  id: z.number(),
  /** The customer's username, or the visitor's email. */
  who: z.string(),
  user_id: z.number().nullable(),
  visitor: z.boolean(),
  last_message: z.string(),
  last_at: z.string(),
  unread: z.number(),
});
/** How many conversations the inbox shows at first, and how many more each "Show more" adds. */
export const SUPPORT_INBOX_PAGE = 100;
export const supportInboxInput = z
  .object({ limit: z.number().int().min(1).max(5000) })
  .strict()
  .optional();
/** `more`: older conversations exist past the ones shown (a crowd of visitors must not hide a customer for good). */
export const supportInbox = z.object({
  conversations: z.array(supportInboxItem),
  unread_total: z.number(),
  more: z.boolean(),
});
export type SupportInbox = z.infer<typeof supportInbox>;

export const supportConversationInput = z.object({ id: z.number().int().positive() }).strict();
export const supportCustomerInput = z.object({ user_id: z.number().int().positive() }).strict();

export const supportConsoleMessage = supportMessage.extend({
  /** The operator who answered, for an answer. */
  operator: z.string().nullable(),
});
export const supportConversation = z.object({
  id: z.number(),
  who: z.string(),
  user_id: z.number().nullable(),
  email: z.string().nullable(),
  messages: z.array(supportConsoleMessage),
});
export type SupportConversation = z.infer<typeof supportConversation>;
/** A customer's conversation on their console page: none until they write. */
export const supportConversationOrNone = supportConversation.nullable();

export const supportReplyInput = z.object({ id: z.number().int().positive(), body: supportBody }).strict();
export const supportReplyOutput = z.object({ emailed: z.boolean() });
