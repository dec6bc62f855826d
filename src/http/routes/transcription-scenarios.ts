// P/transcription-scenarios: CRUD and executions.
import { Type } from '@sinclair/typebox';
import { scenarioRoutes } from '../scenario-routes.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { transcriptionEngineNames } from '../../engines/transcription/registry.ts';
import { startTranscriptionExecution } from '../../services/transcription-runs.ts';
import {
  createTranscriptionScenario,
  deleteTranscriptionScenario,
  getTranscriptionScenario,
  listTranscriptionScenarios,
  updateTranscriptionScenario,
} from '../../services/transcription-scenarios.ts';
import {
  RetrySettings,
  SelectionSchema,
  TranscriptionOptions,
  TranscriptionScenarioCard,
} from '../../cards/transcription.ts';
import { StringEnum } from '../schemas/common.ts';


const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  engine: StringEnum(transcriptionEngineNames),
  model: Type.String({ minLength: 1, maxLength: 200 }),
  language: Type.String({ pattern: '^(auto|[a-z]{2,3}(-[A-Za-z]{2,4})?)$' }),
  options: Type.Partial(TranscriptionOptions, { additionalProperties: false }),
  auto: Type.Boolean(),
  retry: Type.Partial(RetrySettings, { additionalProperties: false }),
  selection: Type.Partial(SelectionSchema),
};
const CreateBody = Type.Composite([Type.Object({ name: fields.name }), Type.Partial(Type.Object({ ...fields, name: fields.name }))], { additionalProperties: false });
const UpdateBody = Type.Partial(Type.Object(fields), { additionalProperties: false });

export const transcriptionScenarioRoutes = (ctx: Context): FastifyPluginAsyncTypebox =>
  scenarioRoutes(ctx, {
    kind: 'transcription',
    path: 'transcription-scenarios',
    noun: 'transcription scenario',
    card: TranscriptionScenarioCard,
    createBody: CreateBody,
    updateBody: UpdateBody,
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
