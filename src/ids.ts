// Public identifiers: a kind prefix and a UUID (CONTRACT.md "Identifiers"). New ids are version 7
// UUIDs (RFC 9562): the first 48 bits are the creation time in milliseconds, the rest random, so
// rows made together sit together in their primary-key index instead of one random page each
// (an execution inserting ten thousand runs touches a few index pages, not ten thousand).
import { randomBytes } from 'node:crypto';

export const idPrefixes = {
  workspace: 'ws',
  account: 'acc',
  recording: 'fl',
  transcriptionScenario: 'sct',
  analysisScenario: 'sca',
  transcriptionRun: 'trn',
  analysisRun: 'anl',
  apiKey: 'key',
  webhook: 'wh',
  invitation: 'inv',
  category: 'cat',
} as const;

export type IdKind = keyof typeof idPrefixes;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const uuidPattern = new RegExp(`^${UUID}$`);

/** A version 7 UUID: 48 bits of Unix milliseconds, version and variant bits, 74 random bits. */
export function uuidV7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const newId = (kind: IdKind): string => `${idPrefixes[kind]}-${uuidV7()}`;
export const newUuid = (): string => uuidV7();

export const isId = (kind: IdKind, value: string): boolean =>
  value.startsWith(`${idPrefixes[kind]}-`) && uuidPattern.test(value.slice(idPrefixes[kind].length + 1));
export const isUuid = (value: string): boolean => uuidPattern.test(value);
