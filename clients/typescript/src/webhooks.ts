// Checks a webhook delivery: Standard Webhooks headers (webhook-id, webhook-timestamp,
// webhook-signature) against the raw body and the whsec_ secret, with a timestamp tolerance.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { HarkError } from './errors.ts';

export class WebhookVerificationError extends HarkError {
  override name = 'WebhookVerificationError';
}

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

const header = (headers: Headers, name: string): string | undefined => {
  if (typeof (headers as globalThis.Headers).get === 'function') return (headers as globalThis.Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name] ?? (headers as Record<string, string | string[] | undefined>)[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** Returns the parsed event when the delivery is genuine; throws WebhookVerificationError otherwise. */
export function verifyWebhook<T = { id: string; type: string; created_at: string; workspace_id: string; data: unknown }>(rawBody: string | Buffer, headers: Headers, secret: string, toleranceSeconds = 300): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  const sent = Number(timestamp);
  if (!Number.isInteger(sent) || Math.abs(Date.now() / 1000 - sent) > toleranceSeconds) throw new WebhookVerificationError('the timestamp is too far from now');
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  const valid = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new WebhookVerificationError('no signature matches');
  return JSON.parse(body) as T;
}
