// P/executions: every execution of the workspace, of both kinds or one, newest first; what the
// web app's Executions page lists in one request. A key sees the kinds its scopes read.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { ExecutionCard, presentExecution } from './execution-card.ts';
import { listWorkspaceExecutions, type ExecutionKind } from './executions.ts';
import { Nullable } from '../../http/schemas/schema-types.ts';
import { Page, pagingFields, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';

const readScope: Record<ExecutionKind, 'transcripts:read' | 'analysis:read'> = { transcription: 'transcripts:read', analysis: 'analysis:read' };

const WorkspaceExecution = Type.Composite(
  [ExecutionCard, Type.Object({ scenario_name: Nullable(Type.String({ description: "The scenario's name; null once the scenario is deleted" })) })],
  { $id: 'WorkspaceExecution' },
);

export const executionRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  app.get(
    '/api/v1/workspaces/:workspace_id/executions',
    {
      // Checked below: each kind needs its own read scope (transcripts:read, analysis:read).
      config: { scope: null },
      schema: {
        tags: ['executions'],
        summary: 'Every execution of the workspace, newest first',
        description:
          'Both kinds unless `kind` names one. An API key sees the kinds its scopes read (`transcripts:read` for transcription, `analysis:read` for analysis); asking for a kind it cannot read, or holding neither, answers 403 `insufficient_scope`.',
        params: WorkspaceParams,
        querystring: Type.Object({
          kind: Type.Optional(Type.Union([Type.Literal('transcription'), Type.Literal('analysis')])),
          ...pagingFields(),
        }, { additionalProperties: false }),
        response: withProblems({ 200: Page(WorkspaceExecution) }, 403),
      },
    },
    async (request) => {
      const held = request.principal?.scopes ?? [];
      const asked: ExecutionKind[] = request.query.kind ? [request.query.kind] : ['transcription', 'analysis'];
      const kinds = asked.filter((kind) => held.includes(readScope[kind]));
      if (kinds.length === 0) {
        const needed = asked.map((kind) => readScope[kind]).join('" or "');
        throw request.principal?.key ? new AppError('insufficient_scope', `the API key needs the "${needed}" scope`) : new AppError('insufficient_role', `the role "${request.principal?.role}" does not include "${needed}"`);
      }
      const { data, next_cursor } = await listWorkspaceExecutions(ctx, request.params.workspace_id, kinds, request.query);
      return { data: data.map((execution) => ({ ...presentExecution(execution), scenario_name: execution.scenario_name })), next_cursor };
    },
  );
};
