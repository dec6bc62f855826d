// What every run card shows, whatever its kind: state, attempts, progress, engine, failure, times.
// Each kind's card adds its own ids (scenario, transcript) around these.
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { RunColumns } from '../../platform/db/tables.ts';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../../http/schemas/schema-types.ts';

export const runCardFields = {
  status: StringEnum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  recording_id: Type.String(),
  execution_id: Nullable(Type.String({ description: 'The execution that started the run, if any' })),
  retry_of: Nullable(Type.String({ description: 'The failed run this one retries' })),
  attempts: Type.Integer({ description: 'Attempts made of this run (retryable failures are tried again inside it)' }),
  progress: Type.Number({ description: '0..1 while running, 1 when completed' }),
  engine: Type.String(),
  model: Type.String(),
  error_code: Nullable(Type.String()),
  error_message: Nullable(Type.String()),
  retryable: Nullable(Type.Boolean()),
  created_at: DateTime,
  started_at: NullableDateTime,
  completed_at: NullableDateTime,
};

type RunFields = Omit<Selectable<RunColumns>, 'scenario'>;

export function presentRunFields(run: RunFields) {
  return {
    status: run.status as 'queued' | 'running' | 'completed' | 'failed' | 'cancelled',
    recording_id: run.recording_id,
    execution_id: run.execution_id,
    retry_of: run.retry_of,
    attempts: run.attempts,
    progress: run.progress,
    engine: run.engine,
    model: run.model,
    error_code: run.error_code,
    error_message: run.error_message,
    retryable: run.retryable,
    created_at: run.created_at,
    started_at: run.started_at,
    completed_at: run.completed_at,
  };
}
