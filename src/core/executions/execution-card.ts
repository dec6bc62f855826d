// The JSON card of an execution (one scenario over many recordings), of either kind.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { ExecutionsTable } from '../../platform/db/tables.ts';
import { DateTime, StringEnum } from '../../http/schemas/schema-types.ts';
import type { RunKindName } from '../runs/run-kind.ts';

/** An execution row with the status and counts computed from its runs. */
export type ExecutionView = Selectable<ExecutionsTable> & { status: 'queued' | 'running' | 'completed' | 'completed_with_errors'; counts: Record<'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'deleted', number> };

export const ExecutionCard = Type.Object(
  {
    id: Type.String({ description: 'A UUID; also the jobId of its child runs' }),
    kind: Type.Union([Type.Literal('transcription'), Type.Literal('analysis')]),
    scenario_id: Type.String(),
    status: StringEnum(['queued', 'running', 'completed', 'completed_with_errors']),
    recording_ids: Type.Array(Type.String()),
    counts: Type.Object({ queued: Type.Integer(), running: Type.Integer(), completed: Type.Integer(), failed: Type.Integer(), cancelled: Type.Integer(), deleted: Type.Integer({ description: 'Recordings deleted since the execution began (their runs went with them)' }) }),
    idempotency_key: Type.String(),
    created_at: DateTime,
  },
  { $id: 'Execution' },
);

export function presentExecution(execution: ExecutionView) {
  return {
    id: execution.id,
    kind: execution.kind as RunKindName,
    scenario_id: execution.scenario_id,
    status: execution.status,
    recording_ids: execution.recording_ids,
    counts: execution.counts,
    idempotency_key: execution.idempotency_key,
    created_at: execution.created_at,
  };
}

const IdempotencyKey = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S', description: 'Any text with a character that is not white space: the same key and body answer the same execution' });

export const ExecutionBody = Type.Object(
  {
    recording_ids: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 10_000, description: 'At least one; omit to use the scenario\'s selection' })),
    idempotency_key: Type.Optional(IdempotencyKey),
  },
  { additionalProperties: false },
);

/**
 * The key may come as Stripe's header instead of the body's field. The header arrives as bytes, one
 * to a character (UTF-8 is read after): 255 characters may be up to 1,020 bytes; the 255 characters
 * are counted once read (checkIdempotencyKey).
 */
export const ExecutionHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ ...IdempotencyKey, maxLength: 255 * 4, description: `${IdempotencyKey.description} (at most 255 characters; in UTF-8, or Latin-1)` })),
});
