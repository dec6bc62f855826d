// Standard Webhooks signing (https://www.standardwebhooks.com): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>" with the base64 key after "whsec_", sent as
// "v1,<base64>" (several space-separated while a rotated secret is still valid). Receivers can
// import verifyWebhook from this file.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export class WebhookVerificationError extends Error {}

/**
 * Checks a delivery's headers against `secret`; returns the parsed payload. Refuses timestamps
 * more than `toleranceSeconds` away from now (replays).
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  toleranceSeconds = 300,
): unknown {
  const header = (name: string) => {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = Number(header('webhook-timestamp'));
  const signatures = header('webhook-signature');
  if (!id || !Number.isFinite(timestamp) || !signatures) throw new WebhookVerificationError('missing webhook headers');
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) throw new WebhookVerificationError('timestamp outside tolerance');
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  const match = signatures.split(' ').some((candidate) => {
    const actual = Buffer.from(candidate);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  });
  if (!match) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(body) as unknown;
}
