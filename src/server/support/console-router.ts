import { messageResponse } from '../../shared/schemas/common';
import {
  supportConversation,
  supportConversationInput,
  supportConversationOrNone,
  supportCustomerInput,
  supportInbox as supportInboxOutput,
  supportInboxInput,
  SUPPORT_INBOX_PAGE,
  supportReplyInput,
  supportReplyOutput,
} from '../../shared/schemas/support';
import { operatorProcedure, router } from '../rpc/trpc';
import {
  conversationOfCustomer,
  operatorRead,
  replyAsOperator,
  supportConversation as getConversation,
  supportInbox,
} from './service';

/** The console's support inbox: conversations, one conversation, the answer. */
export const supportConsoleRouter = router({
  inbox: operatorProcedure
    .input(supportInboxInput)
    .output(supportInboxOutput)
    .query(({ ctx, input }) => supportInbox(ctx.db, input?.limit ?? SUPPORT_INBOX_PAGE)),
  conversation: operatorProcedure
    .input(supportConversationInput)
    .output(supportConversation)
    .query(({ ctx, input }) => getConversation(ctx.db, input.id)),
  of_customer: operatorProcedure
    .input(supportCustomerInput)
    .output(supportConversationOrNone)
    .query(({ ctx, input }) => conversationOfCustomer(ctx.db, input.user_id)),
  read: operatorProcedure
    .input(supportConversationInput)
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await operatorRead(ctx.db, input.id);
      return { success: true as const, message: 'Marked as read.' };
    }),
  reply: operatorProcedure
    .input(supportReplyInput)
    .output(supportReplyOutput)
    .mutation(({ ctx, input }) => replyAsOperator(ctx, ctx.by, input.id, input.body)),
});
