// The routes every kind of scenario has, written once: list, read, create, update, delete, and
// executions over many recordings (start, idempotent by key; list; read with counts).
import { Type, type TProperties, type TSchema, type TString } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExecutionBody, ExecutionCard, ExecutionHeaders, presentExecution, type ExecutionView } from '../executions/execution-card.ts';
import { RetrySettings, ScenarioVersion, SelectionSchema } from './scenario-card.ts';
import type { Context } from '../../context.ts';
import type { Scope } from '../../scopes.ts';
import { getExecution, idempotencyKeyOf, listExecutions, type ExecutionKind } from '../executions/executions.ts';
import { Page, ShortListQuery, StringEnum, pagingFields, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { offsetPage, offsetStart, type RowWindow } from '../cursor.ts';
import { recordingStatuses } from '../../platform/db/tables.ts';

/** The body fields every kind of scenario accepts; each kind adds its own. */
export const scenarioFields = <E extends readonly string[]>(engineNames: E) => ({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  engine: StringEnum(engineNames),
  model: Type.String({ minLength: 1, maxLength: 200 }),
  auto: Type.Boolean(),
  retry: Type.Partial(RetrySettings, { additionalProperties: false }),
  // Strict, as retry is: a misspelt key ("metdata") dropped would leave a selection of every call.
  selection: Type.Partial(
    Type.Object({
      metadata: SelectionSchema.properties.metadata,
      statuses: Type.Array(Type.String(), { minItems: 1, maxItems: recordingStatuses.length, description: SelectionSchema.properties.statuses.description }),
    }),
    { additionalProperties: false },
  ),
});

/**
 * A create body needs the name and takes any other field; an update body takes any subset, and
 * the version it was edited from.
 */
export const scenarioBodies = <F extends TProperties & { name: TString }>(fields: F) => ({
  create: Type.Composite([Type.Object({ name: fields.name }), Type.Partial(Type.Object(fields))], { additionalProperties: false }),
  update: Type.Partial(Type.Object({ ...fields, version: ScenarioVersion }), { additionalProperties: false }),
});

export interface ScenarioService<Scenario, Create, Update> {
  list(ctx: Context, workspaceId: string, window: RowWindow): Promise<Scenario[]>;
  get(ctx: Context, workspaceId: string, id: string): Promise<Scenario>;
  create(ctx: Context, workspaceId: string, body: Create): Promise<Scenario>;
  update(ctx: Context, workspaceId: string, id: string, body: Update): Promise<Scenario>;
  remove(ctx: Context, workspaceId: string, id: string): Promise<void>;
  startExecution(ctx: Context, workspaceId: string, id: string, body: { recording_ids?: string[] | undefined; idempotency_key: string }): Promise<{ execution: ExecutionView; created: boolean }>;
}

export interface ScenarioRouteSpec<Scenario, C extends TSchema, U extends TSchema> {
  kind: ExecutionKind;
  /** The path segment under the workspace: transcription-scenarios, analysis-scenarios. */
  path: string;
  noun: string;
  card: TSchema;
  createBody: C;
  updateBody: U;
  tags: string[];
  scopes: { read: Scope; run: Scope };
  executionSummary: string;
  service: ScenarioService<Scenario, C['static'], U['static']>;
}

const ScenarioParams = Type.Object({ workspace_id: Type.String(), scenario_id: Type.String() });
const ExecutionParams = Type.Object({ workspace_id: Type.String(), scenario_id: Type.String(), execution_id: Type.String() });

export const scenarioRoutes =
  <Scenario, C extends TSchema, U extends TSchema>(ctx: Context, spec: ScenarioRouteSpec<Scenario, C, U>): FastifyPluginAsyncTypebox =>
  async (app) => {
    const base = `/api/v1/workspaces/:workspace_id/${spec.path}`;
    const { card, tags, service, noun } = spec;
    const read = { scope: spec.scopes.read };
    const write = { scope: 'scenarios:write' as const };

    app.get(base, { config: read, schema: { tags, summary: `List ${noun}s, oldest first`, params: WorkspaceParams, querystring: ShortListQuery, response: withProblems({ 200: Page(card) }) } }, async (request) => {
      const start = offsetStart(request.query, `${spec.kind}-scenarios`);
      return offsetPage(await service.list(ctx, request.params.workspace_id, { start, take: request.query.limit + 1 }), request.query.limit, start, `${spec.kind}-scenarios`);
    });
    app.get(`${base}/:scenario_id`, { config: read, schema: { tags, summary: `A ${noun}`, params: ScenarioParams, response: withProblems({ 200: card }, 404) } }, async (request) =>
      service.get(ctx, request.params.workspace_id, request.params.scenario_id),
    );
    app.post(base, { config: write, schema: { tags, summary: `Create a ${noun}`, params: WorkspaceParams, body: spec.createBody, response: withProblems({ 201: card }) } }, async (request, reply) =>
      reply.code(201).send(await service.create(ctx, request.params.workspace_id, request.body as C['static'])),
    );
    app.patch(`${base}/:scenario_id`, { config: write, schema: { tags, summary: `Update a ${noun}`, params: ScenarioParams, body: spec.updateBody, response: withProblems({ 200: card }, 404, 409) } }, async (request) =>
      service.update(ctx, request.params.workspace_id, request.params.scenario_id, request.body as U['static']),
    );
    app.delete(`${base}/:scenario_id`, { config: write, schema: { tags, summary: `Delete a ${noun} (its runs and results stay)`, params: ScenarioParams, response: withProblems({ 204: Type.Null() }, 404) } }, async (request, reply) => {
      await service.remove(ctx, request.params.workspace_id, request.params.scenario_id);
      return reply.code(204).send(null);
    });

    app.post(
      `${base}/:scenario_id/executions`,
      {
        config: { scope: spec.scopes.run, createsWork: true },
        schema: {
          tags,
          summary: spec.executionSummary,
          description: 'A new execution answers 202; the same key with the same body answers 200 with the original; with another body 422.',
          params: ScenarioParams,
          body: ExecutionBody,
          headers: ExecutionHeaders,
          response: withProblems({ 200: ExecutionCard, 202: ExecutionCard }, 402, 404, 409, 422),
        },
      },
      async (request, reply) => {
        const body = { ...request.body, idempotency_key: idempotencyKeyOf(request.body, request.raw.rawHeaders) };
        const { execution, created } = await service.startExecution(ctx, request.params.workspace_id, request.params.scenario_id, body);
        return reply.code(created ? 202 : 200).send(presentExecution(execution));
      },
    );
    app.get(
      `${base}/:scenario_id/executions`,
      {
        config: read,
        schema: {
          tags,
          summary: 'Executions of the scenario, newest first',
          params: ScenarioParams,
          querystring: Type.Object(pagingFields(), { additionalProperties: false }),
          response: withProblems({ 200: Page(ExecutionCard) }, 404),
        },
      },
      async (request) => {
        await service.get(ctx, request.params.workspace_id, request.params.scenario_id);
        const result = await listExecutions(ctx, request.params.workspace_id, spec.kind, request.params.scenario_id, request.query);
        return { data: result.data.map(presentExecution), next_cursor: result.next_cursor };
      },
    );
    app.get(`${base}/:scenario_id/executions/:execution_id`, { config: read, schema: { tags, summary: 'An execution with its current counts', params: ExecutionParams, response: withProblems({ 200: ExecutionCard }, 404) } }, async (request) =>
      presentExecution(await getExecution(ctx, request.params.workspace_id, spec.kind, request.params.scenario_id, request.params.execution_id)),
    );
  };
