// What a page asks for first, asked for as soon as its route is matched: beside the page's code
// (which loads in parallel), not after it has loaded and rendered. Nothing waits on these; the page's
// own queries find the answers (or the requests under way) in the cache under the same keys.
// Signed out, nothing is asked (the workspace frame sends the visitor to sign in).
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import { completedRunIds, latestCompletedRun, queries } from './queries.ts';
import { queryClient } from './query-client.ts';
import { recordingListQuery } from '../lib/filters.ts';
import { signedIn } from '../session.tsx';

/** Runs `ask` once the session (asked for at start) shows the workspace is the visitor's. */
function forMember(ws: string, ask: () => void): void {
  if (!signedIn()) return;
  void queryClient
    .ensureQueryData(queries.session())
    .then((session) => {
      if (session?.workspaces.some((w) => w.id === ws)) ask();
    })
    .catch(() => {
      // The workspace frame shows the problem.
    });
}

export function prefetchRecordings({ params, request }: LoaderFunctionArgs): null {
  const ws = params.workspaceId!;
  const query = recordingListQuery(new URL(request.url).searchParams);
  forMember(ws, () => {
    void queryClient.prefetchQuery(queries.recordings(ws, query));
    void queryClient.prefetchQuery(queries.metadataFields(ws));
    void queryClient.prefetchQuery(queries.categories(ws));
  });
  return null;
}

export function prefetchRecording({ params }: LoaderFunctionArgs): null {
  const ws = params.workspaceId!;
  const id = params.recordingId!;
  forMember(ws, () => {
    void queryClient.prefetchQuery(queries.recording(ws, id));
    void queryClient.prefetchQuery(queries.transcriptionScenarios(ws));
    void queryClient.prefetchQuery(queries.analysisScenarios(ws));
    // The transcript (the page's largest part) and the call's categories, once the runs say which transcript is the latest.
    void queryClient
      .fetchQuery(queries.transcriptionRuns(ws, id))
      .then((runs) => {
        if (latestCompletedRun(runs.data)) void queryClient.prefetchQuery(queries.transcript(ws, id, runs.data));
        void queryClient.prefetchQuery(queries.recordingCategories(ws, id, runs.data));
      })
      .catch(() => {
        // The page's own query shows the problem.
      });
    void queryClient
      .fetchQuery(queries.analysisRuns(ws, id))
      .then((runs) => void queryClient.prefetchQuery(queries.analysisResults(ws, id, completedRunIds(runs.data))))
      .catch(() => {
        // The page's own query shows the problem.
      });
  });
  return null;
}

/** A prefetch is for arriving on a page: not again when only its search (filters, columns, paging) changes, which the page's own queries follow. */
export const onNewPage = ({ currentParams, nextParams }: ShouldRevalidateFunctionArgs): boolean => currentParams.workspaceId !== nextParams.workspaceId || currentParams.recordingId !== nextParams.recordingId;
