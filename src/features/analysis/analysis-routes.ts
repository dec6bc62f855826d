// Analysis: scenarios (CRUD, executions), runs (start, card, list, cancel, retry) and results.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { analysisEngineNames } from '../../engines/analysis/registry.ts';
import { analysisKind } from './analysis-kind.ts';
import { getAnalysisResult, listAnalysisResults, retryAnalysisRun, startAnalysis, startAnalysisExecution } from './analysis-runs.ts';
import {
  createAnalysisScenario,
  deleteAnalysisScenario,
  getAnalysisScenario,
  listAnalysisScenarios,
  updateAnalysisScenario,
} from './analysis-scenarios.ts';
import { AnalysisOptions, AnalysisRunCard, AnalysisScenarioCard, presentAnalysisRun } from './analysis-card.ts';
import { DateTime, mediaResponse, Nullable, Page, pagingFields, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { assertScope } from '../../http/request-context.ts';
import { CONTENT_FILTER_NEEDS, filterQuery, readsWhatCallsSay, recordingFilterFields, recordingFiltersOf } from '../../core/recordings/recording-filters.ts';
import { sendJsonOrCsv } from '../../http/query.ts';
import { answerFilters, answerTable, answerTableCsv } from './answer-table.ts';
import { analysisTemplates, createFromTemplate } from './scenario-templates.ts';
import { runRoutes } from '../../core/runs/run-routes.ts';
import { scenarioBodies, scenarioFields, scenarioRoutes } from '../../core/scenarios/scenario-routes.ts';
import { AnalysisResultCard, AnswerSchema, presentAnalysisResult } from '../../core/analyses/analysis-result.ts';
import { removeReview, reviewAnswer, reviewerOf } from './answer-reviews.ts';
import { QuestionId, QuestionSchema } from '../../core/analyses/questions.ts';

const fields = {
  ...scenarioFields(analysisEngineNames),
  instructions: Type.String({ maxLength: 10_000 }),
  questions: Type.Array(Type.Composite([Type.Object({ id: Type.Optional(QuestionId) }), Type.Pick(QuestionSchema, ['text', 'type', 'speaker', 'within_seconds', 'phrases', 'examples'])], { additionalProperties: false }), { maxItems: 50 }),
  summary: Type.Boolean(),
  options: Type.Partial(AnalysisOptions, { additionalProperties: false }),
};
const bodies = scenarioBodies(fields);

export const analysisRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const P = '/api/v1/workspaces/:workspace_id';
  const tags = ['analysis'];

  await app.register(
    scenarioRoutes(ctx, {
      kind: 'analysis',
      path: 'analysis-scenarios',
      noun: 'analysis scenario',
      card: AnalysisScenarioCard,
      createBody: bodies.create,
      updateBody: bodies.update,
      tags,
      scopes: { read: 'analysis:read', run: 'analysis:write' },
      executionSummary: 'Analyse many recordings\' latest transcripts (idempotent by key)',
      service: {
        list: listAnalysisScenarios,
        get: (c, workspaceId, id) => getAnalysisScenario(c.db, workspaceId, id),
        create: createAnalysisScenario,
        update: updateAnalysisScenario,
        remove: deleteAnalysisScenario,
        startExecution: startAnalysisExecution,
      },
    }),
  );

  const Cell = Type.Object({
    answer: Type.Union([Type.Boolean(), Type.String()], { description: 'The reviewer\'s answer where a person reviewed it, else the engine\'s' }),
    confidence: Type.Number({ description: 'The engine\'s confidence, or 1 where a person reviewed the answer' }),
    uncertain: Type.Boolean({ description: 'Confidence below 0.6 and not reviewed' }),
    reviewed: Type.Boolean({ description: 'A person reviewed the answer (PUT …/answers/{question_id}/review): answer is theirs' }),
    overturned: Type.Boolean({ description: 'Reviewed, and the reviewer\'s answer is not the engine\'s: the engine was wrong' }),
    evidence_start: Nullable(Type.Number({ description: 'Seconds into the call where the first evidence starts' })),
  });
  const AnswerTable = Type.Object({
    analysis_scenario_id: Type.String(),
    execution_id: Nullable(Type.String()),
    questions: Type.Array(Type.Object({ id: Type.String(), text: Type.String(), type: Type.String() })),
    rows: Type.Array(
      Type.Object({
        recording_id: Type.String(),
        filename: Type.String(),
        metadata: Type.Record(Type.String(), Type.Unknown()),
        recorded_at: DateTime,
        analysis_run_id: Type.String(),
        outdated: Type.Boolean({ description: 'true when these answers are of an earlier transcript than the call\'s latest (transcribed again, or corrected, since): analyse the call again for answers of what it now says' }),
        superseded: Type.Boolean({ description: 'true in an execution\'s table when the call has a newer result of the scenario than this execution\'s (analysed again since): reviews and reports count the newest' }),
        answers: Type.Record(Type.String(), Cell, { description: 'By question id' }),
      }),
    ),
    total: Type.Integer({ description: 'Rows matching, before limit and offset' }),
  });
  app.get(
    `${P}/analysis-scenarios/:scenario_id/answers`,
    {
      config: { scope: ['analysis:read', 'recordings:read'] },
      schema: {
        tags,
        summary: 'Answers across calls: one row per call, one cell per question',
        description:
          'Each call\'s latest completed result for the scenario, or with `execution_id` the results of that execution\'s runs. Recording filters as on the list (status, created_after, created_before, recorded_after, recorded_before, metadata.<field>=<value>), and `answer.<question_id>=true|false|uncertain|reviewed|overturned` (several AND-ed; a reviewed answer is the reviewer\'s, never uncertain). Newest call first (recorded_at). `Accept: text/csv` answers CSV.',
        params: Type.Object({ workspace_id: Type.String(), scenario_id: Type.String() }),
        querystring: filterQuery(
          {
            execution_id: Type.Optional(Type.String()),
            ...recordingFilterFields,
            limit: Type.Integer({ minimum: 1, maximum: 1000, default: 200 }),
            offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
          },
          { families: ['answer'] },
        ),
        response: withProblems({ 200: mediaResponse('The table', { 'application/json': AnswerTable, 'text/csv': Type.String({ description: 'One line per call' }) }) }, 404),
      },
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown> & { limit: number; offset: number; execution_id?: string };
      const filters = recordingFiltersOf(query);
      // What the calls say is the transcripts' to tell, as on the recordings list.
      if (readsWhatCallsSay(filters)) assertScope(request, 'transcripts:read', CONTENT_FILTER_NEEDS);
      const table = await answerTable(ctx, request.params.workspace_id, request.params.scenario_id, {
        executionId: query.execution_id,
        filters,
        answers: answerFilters(query),
        limit: query.limit,
        offset: query.offset,
      });
      return sendJsonOrCsv(request, reply, table, answerTableCsv);
    },
  );

  app.get(
    `${P}/analysis-scenario-templates`,
    {
      config: { scope: null },
      schema: {
        tags,
        summary: 'Ready analysis scenarios to add in one step (Call QA)',
        params: WorkspaceParams,
        response: withProblems({ 200: Type.Object({ data: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), description: Type.String(), questions: Type.Array(Type.Object({ id: Type.String(), text: Type.String(), type: Type.String() })) })) }) }),
      },
    },
    async () => ({ data: analysisTemplates.map((t) => ({ id: t.id, name: t.name, description: t.description, questions: (t.scenario.questions ?? []).map((q) => ({ id: q.id ?? '', text: q.text, type: q.type })) })) }),
  );
  app.post(
    `${P}/analysis-scenarios/from-template`,
    {
      config: { scope: 'scenarios:write' },
      schema: {
        tags,
        summary: 'Add an analysis scenario from a template',
        description: 'Call QA\'s questions name the speakers agent and customer: when the transcription scenario uploads use labels no channel, channel 0 becomes "agent" and channel 1 "customer" (labelled_transcription_scenario_id says which scenario was changed).',
        params: WorkspaceParams,
        body: Type.Object({ template: Type.String({ maxLength: 100 }), name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false }),
        response: withProblems({ 201: Type.Composite([AnalysisScenarioCard, Type.Object({ labelled_transcription_scenario_id: Nullable(Type.String()) })]) }),
      },
    },
    async (request, reply) => {
      const { scenario, labelled } = await createFromTemplate(ctx, request.params.workspace_id, request.body.template, request.body.name);
      return reply.code(201).send({ ...scenario, labelled_transcription_scenario_id: labelled });
    },
  );

  app.post(
    `${P}/recordings/:recording_id/analysis-runs`,
    {
      config: { scope: 'analysis:write', createsWork: true },
      schema: {
        tags,
        summary: 'Start an analysis run on a transcript of the recording',
        description: 'Without transcript_id the latest transcript is used and bound to the run. No completed transcript: 409 transcript_not_available.',
        params: Type.Object({ workspace_id: Type.String(), recording_id: Type.String() }),
        body: Type.Object({ analysis_scenario_id: Type.String(), transcript_id: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: withProblems({ 202: AnalysisRunCard }, 402, 404, 409),
      },
    },
    async (request, reply) => reply.code(202).send(presentAnalysisRun(await startAnalysis(ctx, request.params.workspace_id, request.params.recording_id, request.body))),
  );
  await app.register(
    runRoutes(ctx, { kind: analysisKind, path: 'analysis-runs', card: AnalysisRunCard, scopes: { read: 'analysis:read', write: 'analysis:write' }, tags, retry: retryAnalysisRun }),
  );
  const ReviewParams = Type.Object({ workspace_id: Type.String(), run_id: Type.String(), question_id: Type.String() });
  app.put(
    `${P}/analysis-runs/:run_id/answers/:question_id/review`,
    {
      config: { scope: 'analysis:write' },
      schema: {
        tags,
        summary: "Review an answer: agree with it, or give the right one",
        description:
          'A person\'s verdict on one answer of a completed run, replacing an earlier review of it. The engine\'s answer stays as it was; reports, the answer table and its filters count `review.answer` instead, never as uncertain, and reports say how many answers were reviewed and overturned. The call analysed again keeps the review where the question is asked in the same words. `answer` is true or false for a yes/no question, a string for a text one (400 otherwise; an empty string agrees that the call does not say it). 409 run_not_completed before the run completes, 409 result_superseded where the call has a newer result for the scenario (its run id is in the detail).',
        params: ReviewParams,
        body: Type.Object(
          {
            answer: Type.Union([Type.Boolean(), Type.String({ maxLength: 1_000 })], { description: 'The right answer: the engine\'s own to agree with it' }),
            note: Type.Optional(Type.String({ maxLength: 2_000, description: 'Why, for whoever reads the answer next' })),
          },
          { additionalProperties: false },
        ),
        response: withProblems({ 200: AnswerSchema }, 404, 409),
      },
    },
    async (request) =>
      reviewAnswer(ctx, request.params.workspace_id, request.params.run_id, request.params.question_id, request.body, reviewerOf(request.principal)),
  );
  app.delete(
    `${P}/analysis-runs/:run_id/answers/:question_id/review`,
    {
      config: { scope: 'analysis:write' },
      schema: {
        tags,
        summary: "Remove an answer's review",
        description: 'Reports and the answer table count the engine\'s answer again. An answer without a review is no error (nothing changes, no event). 409 result_superseded where the call has a newer result for the scenario, as for PUT.',
        params: ReviewParams,
        response: withProblems({ 204: Type.Null({ description: 'Removed' }) }, 404, 409),
      },
    },
    async (request, reply) => {
      await removeReview(ctx, request.params.workspace_id, request.params.run_id, request.params.question_id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    `${P}/recordings/:recording_id/analysis-results/:run_id`,
    { config: { scope: 'analysis:read' }, schema: { tags, summary: 'The result of a completed analysis run', params: Type.Object({ workspace_id: Type.String(), recording_id: Type.String(), run_id: Type.String() }), response: withProblems({ 200: AnalysisResultCard }, 404, 409) } },
    async (request) => presentAnalysisResult(await getAnalysisResult(ctx, request.params.workspace_id, request.params.recording_id, request.params.run_id)),
  );
  app.get(
    `${P}/analysis-results`,
    {
      config: { scope: 'analysis:read' },
      schema: {
        tags,
        summary: 'List analysis results, newest first',
        params: WorkspaceParams,
        querystring: Type.Object({
          recording_id: Type.Optional(Type.String()),
          transcription_run_id: Type.Optional(Type.String()),
          analysis_scenario_id: Type.Optional(Type.String()),
          ...pagingFields(),
        }, { additionalProperties: false }),
        response: withProblems({ 200: Page(AnalysisResultCard) }),
      },
    },
    async (request) => {
      const page = await listAnalysisResults(ctx, request.params.workspace_id, request.query);
      return { data: page.data.map(presentAnalysisResult), next_cursor: page.next_cursor };
    },
  );
};
