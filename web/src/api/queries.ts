// Every query the pages make, in one place: its key and how it is fetched (TanStack Query's
// queryOptions), so a page, a route's prefetch and an invalidation after a change name the same
// key. `keys` (query-keys.ts) gives the prefixes to invalidate; `queries` the options; the hooks
// at the end are the ones several pages share.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { paths } from '../../../clients/typescript/src/schema.d.ts';
import { fetchSession, SESSION_STALE_MS } from '../session.tsx';
import { api, ok, okJson } from './client.ts';
import { keys } from './query-keys.ts';

export { keys };

type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
export type RecordingListQuery = QueryOf<'/api/v1/workspaces/{workspace_id}/recordings'>;
export type AnswerTableQuery = QueryOf<'/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}/answers'>;

export const RECORDINGS_PAGE_SIZE = 25;
/**
 * How long the answers a route prefetches stay fresh: long enough that the page, mounting once its
 * code has loaded, takes them instead of asking again; short enough that a page opened later asks.
 * (Polling and invalidation after a change are not affected.)
 */
const PREFETCHED_FRESH_MS = 5_000;
const path = (ws: string) => ({ workspace_id: ws });

export const queries = {
  session: () => queryOptions({ queryKey: keys.session, queryFn: fetchSession, staleTime: SESSION_STALE_MS }),

  /** One page of the list, with the filters, cursor and order the URL holds. */
  recordings: (ws: string, query: Omit<RecordingListQuery, 'limit' | 'offset'>) =>
    queryOptions({
      queryKey: [...keys.recordings(ws), query] as const,
      staleTime: PREFETCHED_FRESH_MS,
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings', { params: { path: path(ws), query: { limit: RECORDINGS_PAGE_SIZE, offset: 0, ...query } } })),
    }),
  recording: (ws: string, id: string) =>
    queryOptions({ queryKey: keys.recording(ws, id), staleTime: PREFETCHED_FRESH_MS, queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path: { ...path(ws), recording_id: id } } })) }),
  transcriptionRuns: (ws: string, recordingId: string) =>
    queryOptions({
      queryKey: keys.transcriptionRuns(ws, recordingId),
      staleTime: PREFETCHED_FRESH_MS,
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/transcription-runs', { params: { path: path(ws), query: { recording_id: recordingId, limit: 50 } } })),
    }),
  analysisRuns: (ws: string, recordingId: string) =>
    queryOptions({
      queryKey: keys.analysisRuns(ws, recordingId),
      staleTime: PREFETCHED_FRESH_MS,
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-runs', { params: { path: path(ws), query: { recording_id: recordingId, limit: 50 } } })),
    }),
  /**
   * A recording's latest transcript, given its transcription runs: their completed ones are in the
   * key, so that any run completing reads it again (an older run that completes after a newer one too).
   */
  transcript: (ws: string, recordingId: string, runs: readonly Run[]) => {
    const completed = completedRunIds(runs);
    return queryOptions({
      queryKey: [...keys.transcript(ws, recordingId), completed] as const,
      enabled: completed !== '',
      staleTime: PREFETCHED_FRESH_MS,
      queryFn: () => okJson(api.GET('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/transcript', { params: { path: { ...path(ws), recording_id: recordingId }, query: {} } })),
    });
  },
  /** The categories a recording's latest transcript meets, keyed as its transcript is. */
  recordingCategories: (ws: string, recordingId: string, runs: readonly Run[]) =>
    queryOptions({
      queryKey: [...keys.recordingCategories(ws, recordingId), completedRunIds(runs)] as const,
      staleTime: PREFETCHED_FRESH_MS,
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/categories', { params: { path: { ...path(ws), recording_id: recordingId } } })),
    }),
  analysisResults: (ws: string, recordingId: string, completedRuns: string) =>
    queryOptions({
      queryKey: [...keys.analysisResults(ws, recordingId), completedRuns] as const,
      staleTime: PREFETCHED_FRESH_MS,
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-results', { params: { path: path(ws), query: { recording_id: recordingId, limit: 20 } } })),
    }),
  metadataFields: (ws: string) =>
    queryOptions({ queryKey: keys.metadataFields(ws), queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/metadata-fields', { params: { path: path(ws) } })), staleTime: 60_000 }),
  categories: (ws: string) => queryOptions({ queryKey: keys.categories(ws), staleTime: PREFETCHED_FRESH_MS, queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/categories', { params: { path: path(ws) } })) }),
  transcriptionScenarios: (ws: string) =>
    queryOptions({ queryKey: keys.transcriptionScenarios(ws), staleTime: PREFETCHED_FRESH_MS, queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/transcription-scenarios', { params: { path: path(ws) } })) }),
  analysisScenarios: (ws: string) =>
    queryOptions({ queryKey: keys.analysisScenarios(ws), staleTime: PREFETCHED_FRESH_MS, queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-scenarios', { params: { path: path(ws) } })) }),
  transcriptionScenario: (ws: string, id: string) =>
    queryOptions({
      queryKey: keys.transcriptionScenario(ws, id),
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}', { params: { path: { ...path(ws), scenario_id: id } } })),
    }),
  analysisScenario: (ws: string, id: string) =>
    queryOptions({
      queryKey: keys.analysisScenario(ws, id),
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}', { params: { path: { ...path(ws), scenario_id: id } } })),
    }),
  engines: (ws: string) =>
    queryOptions({ queryKey: keys.engines(ws), queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/engines', { params: { path: path(ws) } })), staleTime: 5 * 60_000 }),
  /** The workspace's latest executions of both kinds, newest first, with their scenarios' names. */
  executions: (ws: string) =>
    queryOptions({
      queryKey: keys.executions(ws),
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/executions', { params: { path: path(ws), query: { limit: 100 } } })),
    }),
  answers: (ws: string, scenarioId: string, query: AnswerTableQuery) =>
    queryOptions({
      queryKey: [...keys.answers(ws, scenarioId), query] as const,
      queryFn: () => okJson(api.GET('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}/answers', { params: { path: { ...path(ws), scenario_id: scenarioId }, query } })),
    }),
  search: (ws: string, q: string) =>
    queryOptions({
      queryKey: [...keys.search(ws), q] as const,
      enabled: q.trim() !== '',
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/search', { params: { path: path(ws), query: { q, limit: 50 } } })),
    }),
  analysisReport: (ws: string, scenarioId: string | null, groupBy: string[]) =>
    queryOptions({
      queryKey: [...keys.reports(ws), 'analysis', scenarioId, groupBy] as const,
      enabled: scenarioId !== null,
      queryFn: () =>
        okJson(api.GET('/api/v1/workspaces/{workspace_id}/reports/analysis', { params: { path: path(ws), query: { analysis_scenario_id: scenarioId!, ...(groupBy.length > 0 ? { group_by: groupBy } : {}) } } })),
    }),
  recordingsReport: (ws: string, groupBy: string[]) =>
    queryOptions({
      queryKey: [...keys.reports(ws), 'recordings', groupBy] as const,
      queryFn: () => okJson(api.GET('/api/v1/workspaces/{workspace_id}/reports/recordings', { params: { path: path(ws), query: groupBy.length > 0 ? { group_by: groupBy } : {} } })),
    }),
  /** How many recordings the list's filters find: the recordings report's one group over them (none when nothing matches). */
  matchingRecordings: (ws: string, filters: Record<string, string | string[]>) =>
    queryOptions({
      queryKey: [...keys.reports(ws), 'matching', filters] as const,
      queryFn: async () => {
        const query = filters as QueryOf<'/api/v1/workspaces/{workspace_id}/reports/recordings'>;
        const report = await okJson(api.GET('/api/v1/workspaces/{workspace_id}/reports/recordings', { params: { path: path(ws), query } }));
        return report.groups[0]?.recordings ?? 0;
      },
    }),
  talkReport: (ws: string, groupBy: string[]) =>
    queryOptions({
      queryKey: [...keys.reports(ws), 'talk', groupBy] as const,
      queryFn: () => okJson(api.GET('/api/v1/workspaces/{workspace_id}/reports/talk', { params: { path: path(ws), query: groupBy.length > 0 ? { group_by: groupBy } : {} } })),
    }),
  members: (ws: string) => queryOptions({ queryKey: keys.members(ws), queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/members', { params: { path: path(ws) } })) }),
  invitations: (ws: string) =>
    queryOptions({ queryKey: keys.invitations(ws), queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/invitations', { params: { path: path(ws) } })) }),
  apiKeys: (ws: string) => queryOptions({ queryKey: keys.keys(ws), queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/api-keys', { params: { path: path(ws) } })) }),
  webhooks: (ws: string) => queryOptions({ queryKey: keys.webhooks(ws), queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/webhooks', { params: { path: path(ws) } })) }),
  deliveries: (ws: string, webhookId: string) =>
    queryOptions({
      queryKey: keys.deliveries(ws, webhookId),
      queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries', { params: { path: { ...path(ws), webhook_id: webhookId }, query: { limit: 20 } } })),
    }),
  invitation: (token: string) => queryOptions({ queryKey: keys.invitation(token), queryFn: () => ok(api.GET('/api/v1/invitations/{token}', { params: { path: { token } } })) }),
};

export const activeRun = (status: string) => status === 'queued' || status === 'running';

/** A run as the lists give it: enough to tell which have completed. */
type Run = { id: string; status: string };

/** The completed runs among `runs`, as one key part: the answers shown are read again when one completes. */
export const completedRunIds = (runs: readonly Run[]): string => runs.filter((r) => r.status === 'completed').map((r) => r.id).join(',');

/** The newest completed run of a list (newest first), or null when none has completed: whether there is a transcript to analyse. */
export const latestCompletedRun = (runs: readonly Run[]): string | null => runs.find((r) => r.status === 'completed')?.id ?? null;

export const useTranscriptionScenarios = (ws: string) => useQuery(queries.transcriptionScenarios(ws));
export const useAnalysisScenarios = (ws: string) => useQuery(queries.analysisScenarios(ws));
export const useEngines = (ws: string) => useQuery(queries.engines(ws));
export const useMetadataFields = (ws: string) => useQuery(queries.metadataFields(ws));
export const useCategories = (ws: string) => useQuery(queries.categories(ws));
