// A recording's metadata: any JSON object the client chooses, returned unchanged, checked for
// size, depth and NUL characters (the database's JSON cannot hold them). Shared by uploads, edits
// and the stored selections of scenarios.
import type { Context } from '../context.ts';
import { invalid, PROTOTYPE_KEY_MESSAGE } from '../errors.ts';

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

/** A `__proto__` key, or `constructor` holding `prototype`, anywhere: what JSON bodies refuse (prototype poisoning), refused in form fields too. */
function hasPrototypeKey(value: unknown, limit = MAX_METADATA_DEPTH + 1): boolean {
  if (value === null || typeof value !== 'object' || limit <= 0) return false;
  const own = value as Record<string, unknown>;
  if (Object.hasOwn(own, '__proto__')) return true;
  const ctor = Object.hasOwn(own, 'constructor') ? own.constructor : undefined;
  if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return true;
  return Object.values(own).some((child) => hasPrototypeKey(child, limit - 1));
}

export function checkMetadata(ctx: { config: { maxMetadataBytes: number } }, value: unknown, path = 'metadata'): Metadata {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(path, 'must be a JSON object');
  if (depthOf(value, MAX_METADATA_DEPTH + 1) > MAX_METADATA_DEPTH) throw invalid(path, `must not nest deeper than ${MAX_METADATA_DEPTH} levels`);
  if (hasPrototypeKey(value)) throw invalid(path, PROTOTYPE_KEY_MESSAGE);
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) > ctx.config.maxMetadataBytes) {
    throw invalid(path, `must be at most ${ctx.config.maxMetadataBytes} bytes of JSON`);
  }
  if (json.includes('\\u0000')) throw invalid(path, 'must not contain NUL characters');
  return { value: value as Record<string, unknown>, json };
}
