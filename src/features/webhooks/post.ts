// One webhook POST through the outbound seam: the address guard on the address connected to, no
// redirects, a time limit, and at most 1 KiB of the answer kept for the delivery log.
import { outboundRequest } from '../../platform/net/outbound.ts';

export interface PostResult {
  statusCode: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

const KEPT_BYTES = 1024;

export async function postWebhook(url: string, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number }): Promise<PostResult> {
  const started = Date.now();
  const done = (result: Omit<PostResult, 'durationMs'>): PostResult => ({ ...result, durationMs: Date.now() - started });
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await outboundRequest(url, {
      policy: { allowPrivate: options.allowPrivate },
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Hark-Webhooks/1' },
      body,
      maxRedirects: 0,
      signal,
    });
    let kept = '';
    try {
      for await (const chunk of response.body) {
        if (kept.length < KEPT_BYTES) kept += String(chunk).slice(0, KEPT_BYTES - kept.length);
        else break;
      }
    } finally {
      response.body.destroy();
    }
    return done({ statusCode: response.status, body: kept, error: null });
  } catch (error) {
    const reason = signal.aborted ? `timed out after ${Math.round(options.timeoutMs / 1000)} s` : (error as Error).message;
    return done({ statusCode: null, body: null, error: reason });
  }
}
