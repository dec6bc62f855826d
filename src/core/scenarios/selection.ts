// Checks shared by both kinds of scenario: the stored selection (which recordings an execution
// without recording_ids takes) and an engine's base URL.
import dns from 'node:dns/promises';
import net from 'node:net';
import type { Config } from '../../config.ts';
import { invalid } from '../../errors.ts';
import { AddressNotAllowedError, assertLiteralAllowed, isPublicAddress } from '../../platform/net/address-policy.ts';
import { checkMetadata } from '../metadata.ts';
import { recordingStatuses } from '../../platform/db/tables.ts';

import type { Selection } from './scenario-card.ts';

export type { Selection };

export function checkSelection(ctx: { config: { maxMetadataBytes: number } }, selection: Selection): Selection {
  selection.statuses.forEach((status, i) => {
    if (!(recordingStatuses as readonly string[]).includes(status)) throw invalid(`selection/statuses/${i}`, `must be one of ${recordingStatuses.join(', ')}`);
  });
  const metadata = checkMetadata(ctx, selection.metadata, 'selection/metadata').value;
  checkSelectionValues(metadata, 'selection/metadata');
  return { metadata, statuses: [...new Set(selection.statuses)] };
}

/**
 * A selection's metadata is a set of the list's metadata filters written as an object: each value
 * a string, number, boolean or null (a nested object for a nested field), matched as the list
 * matches `metadata.<field>=<value>`. A list, or a key with a dot (a nested field's path), would
 * mean something else here than there: refused.
 */
function checkSelectionValues(object: Record<string, unknown>, path: string): void {
  for (const [key, value] of Object.entries(object)) {
    const at = `${path}/${key}`;
    if (key === '' || key.includes('.')) throw invalid(at, 'must be a field name without dots: a nested field is a nested object');
    if (Array.isArray(value)) throw invalid(at, 'must be a string, number, boolean or null (as the list\'s metadata filters take), not a list');
    if (value !== null && typeof value === 'object') {
      if (Object.keys(value).length === 0) throw invalid(at, 'must not be an empty object');
      checkSelectionValues(value as Record<string, unknown>, at);
    }
  }
}

/** A selection's metadata as the list's filters: `{a: {b: 3}}` is `metadata.a.b=3`. */
export function selectionFilters(object: Record<string, unknown>, prefix = ''): Record<string, string[]> {
  const filters: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const [key, value] of Object.entries(object)) {
    const path = `${prefix}${key}`;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(filters, selectionFilters(value as Record<string, unknown>, `${path}.`));
    else filters[path] = [typeof value === 'string' ? value : JSON.stringify(value)];
  }
  return filters;
}

/** A scenario's name as given, trimmed (a blank one refused), or else the current or default name. */
export function scenarioName(given: string | undefined, otherwise: string): string {
  if (given === undefined) return otherwise;
  const name = given.trim();
  if (name === '') throw invalid('name', 'must not be blank');
  return name;
}

/**
 * An engine's address, checked when the scenario is saved as imports and webhooks are: http(s),
 * no credentials in it, and a public address unless HARK_ALLOW_PRIVATE_ADDRESSES (names are resolved
 * now and again, on the connected address, when the engine is called). A remote engine needs an
 * address, the scenario's or the operator's, and is refused when the operator switched remote
 * engines off.
 */
export async function checkEngineAddress(config: Config, engine: { name: string; remote: boolean }, baseUrl: string | undefined): Promise<void> {
  if (engine.remote && !config.remoteEngines) throw invalid('engine', `remote engines are switched off on this server (HARK_REMOTE_ENGINES=off): "${engine.name}" cannot be used`);
  if (engine.remote && !baseUrl && !config.openai.baseUrl) {
    throw invalid('options/base_url', `the "${engine.name}" engine needs the address of its server: set options.base_url, or have the operator set HARK_OPENAI_BASE_URL`);
  }
  if (!baseUrl) return;
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalid('options/base_url', 'must be an http or https URL');
  if (url.username || url.password) throw invalid('options/base_url', 'must not contain credentials');
  if (config.importAllowPrivate) return;
  const allowHint = 'an operator may allow private addresses with HARK_ALLOW_PRIVATE_ADDRESSES';
  // The same rules as imports and webhooks: a private literal or a local name ("localhost.") at once.
  try {
    assertLiteralAllowed(url.hostname, { allowPrivate: false });
  } catch (error) {
    if (error instanceof AddressNotAllowedError) throw invalid('options/base_url', `must reach a public address (${error.address} is not; ${allowHint})`);
    throw error;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return;
  const addresses = (await dns.lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  // The name is named, not what it resolves to: an internal name's address is not the caller's to learn.
  if (addresses.some((address) => !isPublicAddress(address))) throw invalid('options/base_url', `must reach a public address (the host ${host} resolves to one that is not; ${allowHint})`);
}
