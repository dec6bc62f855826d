// Standard Webhooks signing (https://www.standardwebhooks.com) through the `standardwebhooks`
// package, so receivers verify with the same package (or any Standard Webhooks library):
// "v1,<base64>" per secret, space-separated while a rotated secret is still valid.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The value of the `webhook-signature` header: one signature per secret still valid. */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  const at = new Date(timestampSeconds * 1000);
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' ');
}
