// One outbound GET with the address guard, manual redirects (each target checked again), and a
// time limit; the caller streams the body.
import http from 'node:http';
import https from 'node:https';
import { assertAddressAllowed, guardedLookup } from './address-guard.ts';

export class FetchError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export interface FetchOptions {
  allowPrivate: boolean;
  maxRedirects: number;
  signal: AbortSignal;
  /** Replaces the public-address rule (tests use it to stand in for the internet). */
  isAllowed?: (address: string) => boolean;
}

export function validateOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError('invalid_url', 'the URL is not valid', false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('invalid_url', 'only http and https URLs are allowed', false);
  if (url.username || url.password) throw new FetchError('invalid_url', 'credentials in the URL are not allowed', false);
  return url;
}

function requestOnce(url: URL, options: FetchOptions): Promise<http.IncomingMessage> {
  assertAddressAllowed(url.hostname, options.allowPrivate, options.isAllowed);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, {
      lookup: guardedLookup(options.allowPrivate, options.isAllowed),
      signal: options.signal,
      headers: { 'user-agent': 'Hark/1 (audio import)', accept: 'audio/*, application/octet-stream;q=0.9, */*;q=0.5' },
    });
    request.on('response', resolve);
    request.on('error', reject);
  });
}

/** Follows up to `maxRedirects` redirects; returns a 2xx response or throws a FetchError. */
export async function fetchStream(raw: string, options: FetchOptions): Promise<http.IncomingMessage> {
  let url = validateOutboundUrl(raw);
  for (let hop = 0; ; hop++) {
    let response: http.IncomingMessage;
    try {
      response = await requestOnce(url, options);
    } catch (error) {
      throw classify(error, options.signal);
    }
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (hop >= options.maxRedirects) throw new FetchError('too_many_redirects', `more than ${options.maxRedirects} redirects`, false);
      url = validateOutboundUrl(new URL(response.headers.location, url).toString());
      continue;
    }
    if (status >= 200 && status < 300) return response;
    response.resume();
    const transient = status === 429 || status === 408 || status >= 500;
    throw new FetchError(`http_${status}`, `the origin answered HTTP ${status}`, transient);
  }
}

function classify(error: unknown, signal: AbortSignal): FetchError {
  if (error instanceof FetchError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'address_not_allowed') return new FetchError('address_not_allowed', (error as Error).message, false);
  if (signal.aborted) return new FetchError('timeout', 'the download took too long', true);
  if (code === 'ENOTFOUND') return new FetchError('dns_error', 'the host name does not resolve', true);
  if (code === 'ECONNREFUSED') return new FetchError('connection_refused', 'the origin refused the connection', true);
  return new FetchError('network_error', `network error${code ? ` (${code})` : ''}`, true);
}

export { classify as classifyFetchError };
