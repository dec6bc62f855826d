// A recording's metadata: any JSON object the client chooses, returned unchanged, checked for
// size, depth, NUL characters and lone surrogates (the database's JSON cannot hold them) and
// integers a JSON number cannot keep exactly. Shared by uploads, edits
// and the stored selections of scenarios.
import type { Context } from '../context.ts';
import { invalid } from '../errors.ts';
import { inexactNumber } from '../http/json-numbers.ts';
import { assertStorable } from '../http/text-guard.ts';
import { hasPrototypeKey, PROTOTYPE_KEY_MESSAGE } from '../prototype-keys.ts';

export interface Metadata {
  value: Record<string, unknown>;
  json: string;
}

export function parseMetadata(ctx: Context, raw: string | undefined): Metadata {
  if (raw === undefined || raw === '') return { value: {}, json: '{}' };
  if (Buffer.byteLength(raw) > ctx.config.maxMetadataBytes) {
    throw invalid('metadata', `must be at most ${ctx.config.maxMetadataBytes} bytes of JSON`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw invalid('metadata', error instanceof RangeError ? 'nests too deeply' : 'must be a string holding a JSON object');
  }
  const inexact = inexactNumber(raw, value, 'metadata', 'metadata');
  if (inexact) throw invalid(inexact.path, inexact.message);
  return checkMetadata(ctx, value);
}

const MAX_METADATA_DEPTH = 32;

function depthOf(value: unknown, limit: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, limit - 1));
  return deepest + 1;
}

export function checkMetadata(ctx: { config: { maxMetadataBytes: number } }, value: unknown, path = 'metadata'): Metadata {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(path, 'must be a JSON object');
  if (depthOf(value, MAX_METADATA_DEPTH + 1) > MAX_METADATA_DEPTH) throw invalid(path, `must not nest deeper than ${MAX_METADATA_DEPTH} levels`);
  if (hasPrototypeKey(value)) throw invalid(path, PROTOTYPE_KEY_MESSAGE);
  assertStorable(value, path);
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) > ctx.config.maxMetadataBytes) {
    throw invalid(path, `must be at most ${ctx.config.maxMetadataBytes} bytes of JSON`);
  }
  return { value: value as Record<string, unknown>, json };
}
