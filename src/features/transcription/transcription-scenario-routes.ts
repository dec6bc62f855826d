// P/transcription-scenarios: CRUD and executions.
import { Type } from '@sinclair/typebox';
import { scenarioBodies, scenarioFields, scenarioRoutes } from '../../core/scenarios/scenario-routes.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { transcriptionEngineNames } from '../../engines/transcription/registry.ts';
import { startTranscriptionExecution } from './transcription-runs.ts';
import {
  createTranscriptionScenario,
  deleteTranscriptionScenario,
  getTranscriptionScenario,
  listTranscriptionScenarios,
  updateTranscriptionScenario,
} from './transcription-scenarios.ts';
import { TranscriptionOptions, TranscriptionScenarioCard } from './transcription-card.ts';

const fields = {
  ...scenarioFields(transcriptionEngineNames),
  language: Type.String({ pattern: '^(auto|[a-z]{2,3}(-[A-Za-z]{2,4})?)$' }),
  options: Type.Partial(TranscriptionOptions, { additionalProperties: false }),
};
const bodies = scenarioBodies(fields);

export const transcriptionScenarioRoutes = (ctx: Context): FastifyPluginAsyncTypebox =>
  scenarioRoutes(ctx, {
    kind: 'transcription',
    path: 'transcription-scenarios',
    noun: 'transcription scenario',
    card: TranscriptionScenarioCard,
    createBody: bodies.create,
    updateBody: bodies.update,
    tags: ['transcription-scenarios'],
    scopes: { read: 'transcripts:read', run: 'transcripts:write' },
    executionSummary: 'Run the scenario over many recordings (idempotent by key)',
    service: {
      list: listTranscriptionScenarios,
      get: (c, workspaceId, id) => getTranscriptionScenario(c.db, workspaceId, id),
      create: createTranscriptionScenario,
      update: updateTranscriptionScenario,
      remove: deleteTranscriptionScenario,
      startExecution: startTranscriptionExecution,
    },
  });
