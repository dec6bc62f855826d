// What scenarios of every kind share: retry settings and the selection an execution takes.
import { Type, type Static } from '@sinclair/typebox';
import { JsonObject } from '../../http/schemas/schema-types.ts';

export const RetrySettings = Type.Object({
  max_attempts: Type.Integer({ minimum: 1, maximum: 10, description: 'Attempts of a retryable failure inside one run' }),
  backoff_seconds: Type.Number({ minimum: 0, maximum: 3600, description: 'First wait; doubles each attempt' }),
});
export type RetrySettings = Static<typeof RetrySettings>;

export const SelectionSchema = Type.Object({
  metadata: JsonObject,
  statuses: Type.Array(Type.String(), { description: 'Recording statuses an execution without recording_ids takes (default completed; at least one). A transcription execution takes, of these, those a run can start from (queued, processing, completed)' }),
});
export type Selection = Static<typeof SelectionSchema>;

/** A scenario's version: 1 when created, one more at every change. */
export const ScenarioVersion = Type.Integer({
  minimum: 1,
  description: 'One more at every change (an edit, or `auto` turned off because another scenario took it). Send it back with an update to have the update refused with 409 scenario_changed if the scenario changed since it was read.',
});
