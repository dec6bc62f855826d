// P/transcription-scenarios: CRUD and executions.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { transcriptionEngineNames } from '../../engines/transcription/registry.ts';
import { getExecution, listExecutions } from '../../services/executions.ts';
import { startTranscriptionExecution } from '../../services/transcription-runs.ts';
import {
  createTranscriptionScenario,
  deleteTranscriptionScenario,
  getTranscriptionScenario,
  listTranscriptionScenarios,
  updateTranscriptionScenario,
} from '../../services/transcription-scenarios.ts';
import {
  ExecutionBody,
  ExecutionCard,
  presentExecution,
  RetrySettings,
  SelectionSchema,
  TranscriptionOptions,
  TranscriptionScenarioCard,
} from '../../cards/transcription.ts';
import { Page, StringEnum, withProblems, WorkspaceParams } from '../schemas/common.ts';

const ScenarioParams = Type.Object({ workspace_id: Type.String(), scenario_id: Type.String() });

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

export const transcriptionScenarioRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const base = '/api/v1/workspaces/:workspace_id/transcription-scenarios';
  const tags = ['transcription-scenarios'];

  app.get(base, { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'List transcription scenarios', params: WorkspaceParams, response: withProblems({ 200: Type.Object({ data: Type.Array(TranscriptionScenarioCard) }) }) } }, async (request) => ({
    data: await listTranscriptionScenarios(ctx, request.params.workspace_id),
  }));
  app.get(`${base}/:scenario_id`, { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'A transcription scenario', params: ScenarioParams, response: withProblems({ 200: TranscriptionScenarioCard }, 404) } }, async (request) =>
    getTranscriptionScenario(ctx.db, request.params.workspace_id, request.params.scenario_id),
  );
  app.post(base, { config: { scope: 'scenarios:write' }, schema: { tags, summary: 'Create a transcription scenario', params: WorkspaceParams, body: CreateBody, response: withProblems({ 201: TranscriptionScenarioCard }) } }, async (request, reply) =>
    reply.code(201).send(await createTranscriptionScenario(ctx, request.params.workspace_id, request.body)),
  );
  app.patch(`${base}/:scenario_id`, { config: { scope: 'scenarios:write' }, schema: { tags, summary: 'Update a transcription scenario', params: ScenarioParams, body: UpdateBody, response: withProblems({ 200: TranscriptionScenarioCard }, 404) } }, async (request) =>
    updateTranscriptionScenario(ctx, request.params.workspace_id, request.params.scenario_id, request.body),
  );
  app.delete(`${base}/:scenario_id`, { config: { scope: 'scenarios:write' }, schema: { tags, summary: 'Delete a transcription scenario (its runs stay)', params: ScenarioParams, response: withProblems({ 204: Type.Null() }, 404) } }, async (request, reply) => {
    await deleteTranscriptionScenario(ctx, request.params.workspace_id, request.params.scenario_id);
    return reply.code(204).send(null);
  });

  app.post(
    `${base}/:scenario_id/executions`,
    {
      config: { scope: 'transcripts:write', createsWork: true },
      schema: {
        tags,
        summary: 'Run the scenario over many recordings (idempotent by key)',
        description: 'A new execution answers 202; the same key with the same body answers 200 with the original; with another body 422.',
        params: ScenarioParams,
        body: ExecutionBody,
        response: withProblems({ 200: ExecutionCard, 202: ExecutionCard }, 402, 404, 409, 422),
      },
    },
    async (request, reply) => {
      const { execution, created } = await startTranscriptionExecution(ctx, request.params.workspace_id, request.params.scenario_id, request.body);
      return reply.code(created ? 202 : 200).send(presentExecution(execution));
    },
  );
  app.get(
    `${base}/:scenario_id/executions`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'Executions of the scenario, newest first', params: ScenarioParams, querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }), cursor: Type.Optional(Type.String({ maxLength: 100 })) }), response: withProblems({ 200: Page(ExecutionCard) }, 404) } },
    async (request) => {
      const scenario = await getTranscriptionScenario(ctx.db, request.params.workspace_id, request.params.scenario_id);
      const result = await listExecutions(ctx, request.params.workspace_id, 'transcription', scenario.id, request.query);
      return { data: result.data.map(presentExecution), next_cursor: result.next_cursor };
    },
  );
  app.get(
    `${base}/:scenario_id/executions/:execution_id`,
    { config: { scope: 'transcripts:read' }, schema: { tags, summary: 'An execution with its current counts', params: Type.Object({ workspace_id: Type.String(), scenario_id: Type.String(), execution_id: Type.String() }), response: withProblems({ 200: ExecutionCard }, 404) } },
    async (request) => presentExecution(await getExecution(ctx, request.params.workspace_id, 'transcription', request.params.scenario_id, request.params.execution_id)),
  );
};
