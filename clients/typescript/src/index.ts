// Hark's TypeScript client: `new Hark({ baseUrl, apiKey })`, a method per API operation, helpers
// that upload and wait, typed errors, and webhook verification.
export { backoff, Hark, VERSION, type HarkOptions, type WaitOptions } from './client.ts';
export * from './errors.ts';
export type { Answer, Args, RequestOptions, Schemas } from './types.ts';
export { verifyWebhook, WebhookVerificationError } from './webhooks.ts';
