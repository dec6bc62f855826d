// The routes every kind of run has, written once: card, list (newest first, cursor), cancel and
// retry. Each kind's route file adds what is its own (starting runs, transcripts, results).
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import type { AnyRunKind, RunRow } from './run-kind.ts';
import { cancelRun, getRun, listRuns } from './runs.ts';
import type { Scope } from '../../scopes.ts';
import { Page, pagingFields, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';

export interface RunRouteSpec {
  kind: AnyRunKind;
  /** The path segment under the workspace: transcription-runs, analysis-runs. */
  path: string;
  card: TSchema;
  scopes: { read: Scope; write: Scope };
  tags: string[];
  retry: (ctx: Context, workspaceId: string, id: string) => Promise<RunRow>;
}

const RunParams = Type.Object({ workspace_id: Type.String(), run_id: Type.String() });

export const runRoutes = (ctx: Context, spec: RunRouteSpec): FastifyPluginAsyncTypebox => async (app) => {
  const base = `/api/v1/workspaces/:workspace_id/${spec.path}`;
  const { kind, card, tags } = spec;
  const present = (run: RunRow) => kind.present(run);
  const read = { scope: spec.scopes.read };

  app.get(`${base}/:run_id`, { config: read, schema: { tags, summary: `A ${kind.name} run card`, params: RunParams, response: withProblems({ 200: card }, 404) } }, async (request) =>
    present(await getRun(ctx.db, kind, request.params.workspace_id, request.params.run_id)),
  );

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        summary: `List ${kind.name} runs, newest first`,
        params: WorkspaceParams,
        querystring: Type.Object({
          execution_id: Type.Optional(Type.String({ description: 'An execution id: its child runs' })),
          jobId: Type.Optional(Type.String({ description: 'The specification\'s name of execution_id (an alias)' })),
          recording_id: Type.Optional(Type.String()),
          status: Type.Optional(Type.String({ description: 'Comma-separated statuses' })),
          ...pagingFields(),
        }, { additionalProperties: false }),
        response: withProblems({ 200: Page(card) }),
      },
    },
    async (request) => {
      const page = await listRuns(ctx, kind, request.params.workspace_id, request.query);
      return { data: page.data.map(present), next_cursor: page.next_cursor };
    },
  );

  app.post(
    `${base}/:run_id/cancel`,
    {
      config: { scope: spec.scopes.write },
      schema: { tags, summary: `Cancel a queued or running ${kind.name} run (its engine is stopped)`, params: RunParams, response: withProblems({ 200: card }, 404, 409) },
    },
    async (request) => present(await cancelRun(ctx, kind, request.params.workspace_id, request.params.run_id)),
  );

  app.post(
    `${base}/:run_id/retry`,
    {
      config: { scope: spec.scopes.write, createsWork: true },
      schema: { tags, summary: `Retry a failed ${kind.name} run: a new run with retry_of; the original stays`, params: RunParams, response: withProblems({ 202: card }, 402, 404, 409) },
    },
    async (request, reply) => reply.code(202).send(present(await spec.retry(ctx, request.params.workspace_id, request.params.run_id))),
  );
};
