import {
  supportSendInput,
  supportStatus as supportStatusOutput,
  supportThread,
  supportVisitorConfirmInput,
  supportVisitorConfirmOutput,
  supportVisitorInput,
  supportVisitorSendInput,
  supportVisitorStartInput,
  supportVisitorStartOutput,
} from '../../shared/schemas/support';
import { takeSubscriptionSlot } from '../events/live-limits';
import { authedProcedure, publicProcedure, router } from '../rpc/trpc';
import {
  confirmVisitor,
  customerRead,
  customerThread,
  sendAsCustomer,
  sendAsVisitor,
  startAsVisitor,
  supportStatus,
  userConversationId,
  visitorChannel,
  visitorConversationId,
  visitorThread,
} from './service';

/**
 * The support chat widget's calls: a signed-in customer's (their account is the
 * conversation) and a visitor's (the token their first message returned). Not in the
 * spec's API: tRPC only. The operator's side is `console.support`.
 */
export const supportRouter = router({
  status: publicProcedure
    .meta({ allowInMaintenance: true })
    .output(supportStatusOutput)
    .query(({ ctx }) => supportStatus(ctx.config.supportHours)),
  thread: authedProcedure.output(supportThread).query(({ ctx }) => customerThread(ctx.db, ctx.user)),
  send: authedProcedure
    .input(supportSendInput)
    .output(supportThread)
    .mutation(({ ctx, input }) => sendAsCustomer(ctx, ctx.user, input.body)),
  read: authedProcedure.mutation(async ({ ctx }) => {
    await customerRead(ctx.db, await userConversationId(ctx.db, ctx.user.id), ctx.user.id);
    void ctx.hub.poke();
  }),
  visitor_start: publicProcedure
    .input(supportVisitorStartInput)
    .output(supportVisitorStartOutput)
    .mutation(({ ctx, input }) => startAsVisitor(ctx, input.email, input.body)),
  /** The mailed link's page: a held conversation joins the inbox. */
  visitor_confirm: publicProcedure
    .input(supportVisitorConfirmInput)
    .output(supportVisitorConfirmOutput)
    .mutation(({ ctx, input }) => confirmVisitor(ctx, input.token)),
  visitor_thread: publicProcedure
    .input(supportVisitorInput)
    .output(supportThread)
    .query(({ ctx, input }) => visitorThread(ctx.db, input.token)),
  visitor_send: publicProcedure
    .input(supportVisitorSendInput)
    .output(supportThread)
    .mutation(({ ctx, input }) => sendAsVisitor(ctx, input.token, input.body)),
  visitor_read: publicProcedure.input(supportVisitorInput).mutation(async ({ ctx, input }) => {
    const id = await visitorConversationId(ctx.db, input.token);
    await customerRead(ctx.db, id, visitorChannel(id));
    void ctx.hub.poke();
  }),
  /**
   * A visitor's live channel: `support_chat` events of their conversation only (every
   * other event, even one sent to everyone, is for accounts). No replay: the widget
   * refetches the thread whenever it (re)subscribes.
   */
  visitor_live: publicProcedure.input(supportVisitorInput).subscription(async function* ({ ctx, input, signal }) {
    const channel = visitorChannel(await visitorConversationId(ctx.db, input.token));
    const release = takeSubscriptionSlot(ctx.hub, ctx.req, channel);
    let pending = 0;
    let wake: (() => void) | undefined;
    const unsubscribe = ctx.hub.subscribe(channel, (e) => {
      if (e.userId !== channel || e.event.type !== 'support_chat') return;
      pending++;
      wake?.();
    });
    const stopped = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
    try {
      yield { type: 'sync' as const };
      while (!signal?.aborted) {
        if (pending) {
          // Several changes at once are one refetch.
          pending = 0;
          yield { type: 'support_chat' as const };
          continue;
        }
        await Promise.race([new Promise<void>((r) => (wake = r)), stopped]);
        wake = undefined;
      }
    } finally {
      unsubscribe();
      release();
    }
  }),
});
