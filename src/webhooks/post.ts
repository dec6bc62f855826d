// One webhook POST: the address guard on the address connected to, no redirects, a time limit,
// and at most 1 KiB of the answer kept for the delivery log.
import http from 'node:http';
import https from 'node:https';
import { assertAddressAllowed, guardedLookup } from '../net/address-guard.ts';

export interface PostResult {
  statusCode: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

export function postWebhook(url: string, headers: Record<string, string>, body: string, options: { allowPrivate: boolean; timeoutMs: number }): Promise<PostResult> {
  const started = Date.now();
  const done = (result: Omit<PostResult, 'durationMs'>): PostResult => ({ ...result, durationMs: Date.now() - started });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      assertAddressAllowed(target.hostname, options.allowPrivate);
    } catch (error) {
      resolve(done({ statusCode: null, body: null, error: (error as Error).message }));
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Hark-Webhooks/1' },
      lookup: guardedLookup(options.allowPrivate),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    request.on('response', (response) => {
      let kept = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (kept.length < 1024) kept += chunk.slice(0, 1024 - kept.length);
      });
      response.on('end', () => resolve(done({ statusCode: response.statusCode ?? null, body: kept, error: null })));
      response.on('error', (error) => resolve(done({ statusCode: response.statusCode ?? null, body: kept, error: error.message })));
    });
    request.on('error', (error) => {
      const reason = error.name === 'AbortError' || error.name === 'TimeoutError' ? 'timed out after 10 s' : error.message;
      resolve(done({ statusCode: null, body: null, error: reason }));
    });
    request.end(body);
  });
}
