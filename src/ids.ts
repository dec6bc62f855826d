// Public identifiers: a kind prefix and a UUID (CONTRACT.md "Identifiers").
import { randomUUID } from 'node:crypto';

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
} as const;

export type IdKind = keyof typeof idPrefixes;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const uuidPattern = new RegExp(`^${UUID}$`);

export const newId = (kind: IdKind): string => `${idPrefixes[kind]}-${randomUUID()}`;
export const newUuid = (): string => randomUUID();

export const isId = (kind: IdKind, value: string): boolean =>
  value.startsWith(`${idPrefixes[kind]}-`) && uuidPattern.test(value.slice(idPrefixes[kind].length + 1));
export const isUuid = (value: string): boolean => uuidPattern.test(value);
