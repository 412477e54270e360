/** What the card webhook answers Stripe (webhook.ts and reversals.ts both make one). */
export type WebhookAnswer = { status: 200 | 400 | 404; message: string };
