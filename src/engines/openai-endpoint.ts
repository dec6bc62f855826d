// Calls to an OpenAI-compatible server: the base URL (scenario or config), the key, the address
// check, and errors mapped to retryable or not (network, 429 and 5xx retry; other 4xx do not).
import dns from 'node:dns/promises';
import type { Config } from '../config.ts';
import { assertAddressAllowed, isPublicAddress } from '../net/address-guard.ts';
import { EngineError } from './transcription/types.ts';

export function baseUrlOf(config: Config, scenarioBaseUrl: string | null): string {
  const base = scenarioBaseUrl ?? config.openai.baseUrl ?? 'https://api.openai.com/v1';
  return base.replace(/\/+$/, '');
}

/** A scenario's URL is the API user's choice, so it gets the import guard; the operator's is trusted. */
export async function checkAddress(config: Config, url: URL, fromScenario: boolean): Promise<void> {
  if (!fromScenario || config.importAllowPrivate) return;
  try {
    assertAddressAllowed(url.hostname, false);
    const addresses = await dns.lookup(url.hostname.replace(/^\[|\]$/g, ''), { all: true });
    if (addresses.some((a) => !isPublicAddress(a.address))) throw new Error('private');
  } catch {
    throw new EngineError('address_not_allowed', `the engine address ${url.host} is not public`, false);
  }
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
  await checkAddress(config, url, scenarioBaseUrl !== null);
  const headers: Record<string, string> = {};
  if (config.openai.apiKey) headers.authorization = `Bearer ${config.openai.apiKey}`;
  if (typeof body === 'string') headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]), redirect: 'error' });
  } catch (error) {
    if (signal.aborted) throw new EngineError('cancelled', 'the run was cancelled', false);
    throw new EngineError('engine_unreachable', `the engine at ${url.host} could not be reached (${(error as Error).name})`, true);
  }
  const text = await response.text();
  if (!response.ok) {
    const retryable = response.status === 429 || response.status >= 500;
    let detail = '';
    try {
      detail = String((JSON.parse(text) as { error?: { message?: string } }).error?.message ?? '');
    } catch {
      // not JSON: keep the status alone
    }
    throw new EngineError(`engine_http_${response.status}`, `the engine answered HTTP ${response.status}${detail ? `: ${detail.slice(0, 300)}` : ''}`, retryable);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EngineError('engine_bad_response', 'the engine answered with something other than JSON', true);
  }
}
