// Calls to an OpenAI-compatible server: the base URL (scenario or config), the key, the address
// check, and errors mapped to retryable or not (network, 429 and 5xx retry; other 4xx do not).
import type { Config } from '../config.ts';
import type { AddressPolicy } from '../platform/net/address-policy.ts';
import { classifyOutboundError, outboundRequest } from '../platform/net/outbound.ts';
import { EngineError } from './transcription/types.ts';

/**
 * The server a run calls: the scenario's, else the operator's. Never a default cloud address: a
 * scenario saved before either was required fails at once, as does one run after the operator
 * switched remote engines off.
 */
export function baseUrlOf(config: Config, scenarioBaseUrl: string | null): string {
  if (!config.remoteEngines) throw new EngineError('remote_engines_off', 'remote engines are switched off on this server (HARK_REMOTE_ENGINES=off)', false);
  const base = scenarioBaseUrl ?? config.openai.baseUrl;
  if (!base) throw new EngineError('engine_not_configured', 'the scenario names no base_url and HARK_OPENAI_BASE_URL is not set', false);
  if (/^[a-z]+:\/\/[^/]*@/i.test(base)) throw new EngineError('engine_not_configured', 'the engine address must not contain credentials', false);
  return base.replace(/\/+$/, '');
}

/**
 * The operator's key (HARK_OPENAI_API_KEY) for a run's server: only where that server is the
 * operator's own (HARK_OPENAI_BASE_URL). A scenario's base_url is any API user's choice: the key
 * sent there would be theirs to read. A server of a scenario's own is called without a key.
 */
export function engineKeyFor(config: Config, scenarioBaseUrl: string | null): string | null {
  if (!config.openai.apiKey) return null;
  if (scenarioBaseUrl === null) return config.openai.apiKey;
  const same = (a: string, b: string) => {
    try {
      const [x, y] = [new URL(a), new URL(b)];
      return x.origin === y.origin && x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '');
    } catch {
      return false;
    }
  };
  return config.openai.baseUrl && same(scenarioBaseUrl, config.openai.baseUrl) ? config.openai.apiKey : null;
}

/** A scenario's URL is the API user's choice, so it gets the import guard; the operator's is trusted. */
export function engineAddressPolicy(config: Config, fromScenario: boolean): AddressPolicy {
  return { allowPrivate: !fromScenario || config.importAllowPrivate };
}

export async function postToEngine(
  config: Config,
  scenarioBaseUrl: string | null,
  path: string,
  body: FormData | string,
  signal: AbortSignal,
  timeoutMs = 15 * 60_000,
): Promise<unknown> {
  const url = new URL(`${baseUrlOf(config, scenarioBaseUrl)}${path}`);
  const headers: Record<string, string> = {};
  const key = engineKeyFor(config, scenarioBaseUrl);
  if (key) headers.authorization = `Bearer ${key}`;
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  const limit = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  let status: number;
  let text: string;
  try {
    const response = await outboundRequest(url.toString(), { policy: engineAddressPolicy(config, scenarioBaseUrl !== null), method: 'POST', headers, body, maxRedirects: 0, signal: limit });
    status = response.status;
    text = await response.body.text();
  } catch (error) {
    if (signal.aborted) throw new EngineError('cancelled', 'the run was cancelled', false);
    const failure = classifyOutboundError(error, limit);
    if (failure.code === 'address_not_allowed') throw new EngineError('address_not_allowed', `the engine address ${url.host} is not public`, false);
    throw new EngineError('engine_unreachable', `the engine at ${url.host} could not be reached (${failure.code})`, true);
  }
  if (status < 200 || status >= 300) {
    const retryable = status === 429 || status >= 500;
    let detail = '';
    try {
      detail = String((JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '');
    } catch {
      // not JSON: keep the status alone
    }
    throw new EngineError(`engine_http_${status}`, `the engine answered HTTP ${status}${detail ? `: ${detail.slice(0, 300)}` : ''}`, retryable);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError('engine_bad_response', 'the engine answered with something other than JSON', true);
  }
}
