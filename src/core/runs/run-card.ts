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
  error_code: Nullable(Type.String({ description: 'Present on failure (status failed), else null' })),
  error_message: Nullable(Type.String({ description: 'Present on failure (status failed), else null' })),
  retryable: Nullable(Type.Boolean({ description: 'Present on failure: whether POST …/retry may start a new run for it' })),
  last_error: Nullable(
    Type.Object(
      { code: Type.String(), message: Type.String() },
      { description: "While a run waits to be tried again by its scenario's `retry` (status queued), why its last attempt failed; null otherwise" },
    ),
  ),
  created_at: DateTime,
  started_at: NullableDateTime,
  completed_at: NullableDateTime,
};

type RunFields = Omit<Selectable<RunColumns>, 'scenario'>;

export function presentRunFields(run: RunFields) {
  const failed = run.status === 'failed';
  return {
    status: run.status as 'queued' | 'running' | 'completed' | 'failed' | 'cancelled',
    recording_id: run.recording_id,
    execution_id: run.execution_id,
    retry_of: run.retry_of,
    attempts: run.attempts,
    progress: run.progress,
    engine: run.engine,
    model: run.model,
    // The failure fields are a failed run's; a run waiting for its next attempt shows its last error apart.
    error_code: failed ? run.error_code : null,
    error_message: failed ? run.error_message : null,
    retryable: failed ? run.retryable : null,
    last_error: (run.status === 'queued' || run.status === 'running') && run.error_code !== null ? { code: run.error_code, message: run.error_message ?? '' } : null,
    created_at: run.created_at,
    started_at: run.started_at,
    completed_at: run.completed_at,
  };
}
