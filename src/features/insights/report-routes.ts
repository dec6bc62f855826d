// P/reports: analysis results and recordings grouped by metadata and period; CSV on request.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { analysisReport, analysisReportCsv, recordingsReport, recordingsReportCsv, talkReport, talkReportCsv } from './reports.ts';
import { AnalysisReportSchema, RecordingsReportSchema, TalkReportSchema } from './report-schemas.ts';
import { mediaResponse, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { CONTENT_FILTER_NEEDS, filterQuery, readsWhatCallsSay, recordingFilterFields, recordingFiltersOf, type RecordingFilters } from '../../core/recordings/recording-filters.ts';
import { sendJsonOrCsv } from '../../http/query.ts';
import { assertScope } from '../../http/request-context.ts';

const filterFields = {
  group_by: Type.Optional(Type.Array(Type.String(), { maxItems: 5, description: 'metadata.<field>, category (the call categories a recording meets, by name: a recording in two counts in both, one in none under null), recorded_at:day|week|month (when the call took place) or created_at:day|week|month (when it was uploaded); repeat for several' })),
  ...recordingFilterFields,
};
/** The recording filters of a report; those that read what the calls say need `transcripts:read` too, as on the list. */
function filtersOf(request: FastifyRequest, query: Record<string, unknown>): RecordingFilters {
  const filters = recordingFiltersOf(query);
  if (readsWhatCallsSay(filters)) assertScope(request, 'transcripts:read', CONTENT_FILTER_NEEDS);
  return filters;
}

/** JSON by default; CSV with `Accept: text/csv`. */
const csvText = Type.String({ description: 'One line per group, a header line first' });
const reportResponse = (json: TSchema) => mediaResponse('The report', { 'application/json': json, 'text/csv': csvText });

export const reportRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const tags = ['reports'];
  const config = { scope: 'reports:read' as const };
  app.get(
    '/api/v1/workspaces/:workspace_id/reports/analysis',
    {
      config,
      schema: {
        tags,
        summary: 'Analysis results per group: calls, and per boolean question the true/false counts and rate, over each recording\'s latest result',
        description: 'Recording filters as on the list (status, pipeline_status, created_after, created_before, metadata.<field>=<value>). `Accept: text/csv` answers CSV.',
        params: WorkspaceParams,
        querystring: filterQuery({
          analysis_scenario_id: Type.String(),
          sentiment: Type.Optional(Type.Boolean({ description: 'true: each group also gives, per speaker, the mean sentiment of the transcripts its results analysed (reads those transcripts: slower over many results)' })),
          ...filterFields,
        }),
        response: withProblems({ 200: reportResponse(AnalysisReportSchema) }, 404),
      },
    },
    async (request, reply) => {
      const { sentiment, ...query } = request.query;
      const report = await analysisReport(ctx, request.params.workspace_id, query.analysis_scenario_id, query.group_by ?? [], filtersOf(request, query), { sentiment: sentiment === true });
      return sendJsonOrCsv(request, reply as FastifyReply, report, analysisReportCsv);
    },
  );
  app.get(
    '/api/v1/workspaces/:workspace_id/reports/recordings',
    {
      config,
      schema: {
        tags,
        summary: 'Recordings per group: counts by status and total duration',
        params: WorkspaceParams,
        querystring: filterQuery(filterFields),
        response: withProblems({ 200: reportResponse(RecordingsReportSchema) }),
      },
    },
    async (request, reply) => {
      const report = await recordingsReport(ctx, request.params.workspace_id, request.query.group_by ?? [], filtersOf(request, request.query));
      return sendJsonOrCsv(request, reply as FastifyReply, report, recordingsReportCsv);
    },
  );
  app.get(
    '/api/v1/workspaces/:workspace_id/reports/talk',
    {
      config,
      schema: {
        tags,
        summary: 'Talk statistics per group: silence, overlap and interruptions per call, and per speaker the talk ratio, talk time, pace and longest turn, averaged',
        description: "Each recording counts with its latest transcript. Recording filters as on the list. `Accept: text/csv` answers CSV.",
        params: WorkspaceParams,
        querystring: filterQuery(filterFields),
        response: withProblems({ 200: reportResponse(TalkReportSchema) }),
      },
    },
    async (request, reply) => {
      const report = await talkReport(ctx, request.params.workspace_id, request.query.group_by ?? [], filtersOf(request, request.query));
      return sendJsonOrCsv(request, reply as FastifyReply, report, talkReportCsv);
    },
  );
};
