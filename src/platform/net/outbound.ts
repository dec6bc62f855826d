// The one way Hark makes outbound HTTP requests (imports, webhooks, engines): an undici dispatcher
// whose connector checks the address of the socket actually connected (so DNS rebinding between
// a check and the connection cannot get through), redirects followed by hand with every hop
// checked again, and one set of time limits.
import { finished, PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Agent, buildConnector, fetch as undiciFetch, request, type Dispatcher } from 'undici';
import { AddressNotAllowedError, allows, assertLiteralAllowed, guardedLookup, type AddressPolicy } from './address-policy.ts';

export class OutboundError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** Worth trying again later (network trouble, 408/429/5xx). */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export interface OutboundOptions {
  policy: AddressPolicy;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | FormData;
  /** 0 returns a redirect as the answer (webhooks never follow one); imports follow a few. */
  maxRedirects: number;
  signal: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable & { text(): Promise<string> };
  url: URL;
}

/** How far an answer's body may run ahead of its reader before the connection is slowed. */
const READ_AHEAD_BYTES = 32 * 1024 * 1024;

const CONNECT_TIMEOUT_MS = 10_000;
const agents = new Map<string, Dispatcher>();

/** The dispatcher of a policy: a name that resolves privately is refused before connecting,
 *  and the connected socket's own address is checked again before any byte is sent. */
export function dispatcherFor(policy: AddressPolicy): Dispatcher {
  const key = policy.allowPrivate ? 'any' : policy.isAllowed ? '' : 'public';
  const cached = key ? agents.get(key) : undefined;
  if (cached) return cached;
  const connect = buildConnector({ timeout: CONNECT_TIMEOUT_MS, lookup: guardedLookup(policy) } as buildConnector.BuildOptions);
  const agent = new Agent({
    // Each caller bounds its whole request with its own signal (an engine may think for minutes
    // before its headers); undici's own inactivity limits would cut it short.
    headersTimeout: 0,
    bodyTimeout: 0,
    connect: (options, callback) =>
      connect(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('no socket'), null);
        const address = socket.remoteAddress ?? '';
        if (!allows(policy, address)) {
          socket.destroy();
          return callback(new AddressNotAllowedError(address, options.hostname), null);
        }
        callback(null, socket);
      }),
  });
  if (key) agents.set(key, agent);
  return agent;
}

export function checkOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'the URL is not valid', false);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('invalid_url', 'only http and https URLs are allowed', false);
  if (url.username || url.password) throw new OutboundError('invalid_url', 'credentials in the URL are not allowed', false);
  return url;
}

/** One request, following up to `maxRedirects` redirects (303 and 301/302 on POST become GET). */
export async function outboundRequest(raw: string, options: OutboundOptions): Promise<OutboundResponse> {
  let url = checkOutboundUrl(raw);
  let method = options.method ?? 'GET';
  let body = options.body;
  for (let hop = 0; ; hop++) {
    let response: Dispatcher.ResponseData<unknown>;
    try {
      assertLiteralAllowed(url.hostname, options.policy);
      const encoded = encodeBody(body);
      response = await request(url, {
        method,
        headers: { ...options.headers, ...encoded.headers },
        body: encoded.body,
        signal: options.signal,
        dispatcher: dispatcherFor(options.policy),
      } as Parameters<typeof request>[1]);
    } catch (error) {
      throw classifyOutboundError(error, options.signal);
    }
    const location = response.headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string' && options.maxRedirects > 0) {
      await response.body.dump().catch(() => {});
      if (hop >= options.maxRedirects) throw new OutboundError('too_many_redirects', `more than ${options.maxRedirects} redirects`, false);
      url = checkOutboundUrl(new URL(location, url).toString());
      if (response.statusCode === 303 || (method === 'POST' && response.statusCode !== 307 && response.statusCode !== 308)) {
        method = 'GET';
        body = undefined;
      }
      continue;
    }
    return { status: response.statusCode, headers: response.headers, body: readAhead(response.body), url };
  }
}

/**
 * An answer's body, read as it arrives into a buffer of its own (up to READ_AHEAD_BYTES ahead of
 * its reader). undici 7 crashes the process, by an assertion no handler can catch, when a server
 * ends the connection (HTTP/1.0, `Connection: close`: Python's http.server) while a body waits
 * to be read and its parser is paused for it (nodejs/undici#5360, fixed only in undici 8, which
 * needs Node 22): reading at once keeps the parser from pausing. Only a reader more than
 * READ_AHEAD_BYTES behind (a store far slower than the network) pauses it still.
 */
function readAhead(source: Readable): OutboundResponse['body'] {
  // The buffer is the readable side's; the writable side holds one chunk.
  const body = new PassThrough({ readableHighWaterMark: READ_AHEAD_BYTES, writableHighWaterMark: 64 * 1024 }) as PassThrough & { text(): Promise<string> };
  body.text = async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  source.on('data', (chunk: Buffer) => {
    if (!body.write(chunk)) source.pause();
  });
  body.on('drain', () => source.resume());
  // However the answer ends (its end, an error, a connection closed early), the reader is told.
  finished(source, (error) => (error ? body.destroy(error) : body.end()));
  // A time limit that fires after the caller has finished with the body would otherwise raise an
  // unhandled 'error'; readers (pipeline, for await, text()) still see every error.
  body.on('error', () => {});
  body.once('close', () => source.destroy());
  return body;
}

/** Node's own FormData is not undici's: it is encoded as a multipart stream here. */
function encodeBody(body: string | FormData | undefined): { body: string | Readable | null; headers: Record<string, string> } {
  if (body === undefined) return { body: null, headers: {} };
  if (typeof body === 'string') return { body, headers: {} };
  const encoded = new Response(body);
  const stream = encoded.body ? Readable.fromWeb(encoded.body as WebReadableStream) : null;
  return { body: stream, headers: { 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data' } };
}

/** A fetch for SDKs that take one (the OpenAI client): same dispatcher, no redirects. */
export function guardedFetch(policy: AddressPolicy): typeof globalThis.fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const target = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    assertLiteralAllowed(target.hostname, policy);
    return undiciFetch(target, { ...(init as object), redirect: 'error', dispatcher: dispatcherFor(policy) } as Parameters<typeof undiciFetch>[1]);
  }) as unknown as typeof globalThis.fetch;
}

export function classifyOutboundError(error: unknown, signal: AbortSignal): OutboundError {
  if (error instanceof OutboundError) return error;
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  if (error instanceof AddressNotAllowedError || cause instanceof AddressNotAllowedError || code === 'address_not_allowed') {
    const refused = error instanceof AddressNotAllowedError ? error : cause instanceof AddressNotAllowedError ? cause : null;
    return new OutboundError('address_not_allowed', refused?.message ?? 'the address is not public', false);
  }
  if (signal.aborted) return new OutboundError('timeout', 'the request took too long', true);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new OutboundError('dns_error', 'the host name does not resolve', true);
  if (code === 'ECONNREFUSED') return new OutboundError('connection_refused', 'the server refused the connection', true);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return new OutboundError('timeout', 'the server did not answer in time', true);
  return new OutboundError('network_error', `network error${code ? ` (${code})` : ''}`, true);
}
