// A recording: player with waveform beside its transcript (the word being heard lit, a click
// seeks), exports, runs of both kinds with Cancel and Retry, new runs with a chosen scenario, and
// analysis results whose evidence seeks the audio. This page holds the data (the queries, polled
// while something moves) and lays out its parts (components/recording/).
import { Grid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/client.ts';
import { activeRun, completedRunIds, keys, latestCompletedRun, queries, useAnalysisScenarios, useTranscriptionScenarios } from '../api/queries.ts';
import type { PlayerHandle } from '../components/AudioPlayer.tsx';
import { ProblemAlert, problemMessage } from '../components/Problem.tsx';
import { ReviewQueue } from '../components/recording/ReviewQueue.tsx';
import { RecordingHeader } from '../components/recording/RecordingHeader.tsx';
import { RecordingWork } from '../components/recording/RecordingWork.tsx';
import { TranscriptPanel } from '../components/recording/TranscriptPanel.tsx';
import { movingPipeline } from '../components/Status.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { failedStatuses, preparingStatuses } from '../lib/recording-status.ts';
import { can } from '../session.tsx';
import { usePageTitle } from '../components/PageTitle.ts';

// Stable stand-ins for lists not loaded yet, so the memoised parts see the same value each render.
const NONE: never[] = [];

export default function Recording() {
  const workspace = useWorkspace();
  const { recordingId = '' } = useParams();
  // ?t=12.5 (a search hit) stands the player at that time.
  const startAt = Number(useSearchParams()[0].get('t')) || undefined;
  const client = useQueryClient();
  const player = useRef<PlayerHandle>(null);
  const [time, setTime] = useState(0);
  const writer = can.write(workspace.role);

  const recording = useQuery({
    ...queries.recording(workspace.id, recordingId),
    // Polled while the audio is prepared or a run moves the call along the pipeline.
    refetchInterval: (q) => (q.state.data && (preparingStatuses.has(q.state.data.status) || movingPipeline.has(q.state.data.pipeline.status)) ? 1500 : false),
  });
  usePageTitle(recording.data?.filename ?? 'Recording', workspace.name);
  const transcriptionRuns = useQuery({
    ...queries.transcriptionRuns(workspace.id, recordingId),
    refetchInterval: (q) => (q.state.data?.data.some((r) => activeRun(r.status)) ? 1500 : false),
  });
  const analysisRuns = useQuery({
    ...queries.analysisRuns(workspace.id, recordingId),
    refetchInterval: (q) => (q.state.data?.data.some((r) => activeRun(r.status)) ? 1500 : false),
  });
  const latestCompleted = latestCompletedRun(transcriptionRuns.data?.data ?? []);
  const transcriptionRunList = transcriptionRuns.data?.data ?? NONE;
  // The transcript and categories are keyed by every completed run: any run that completes reads them again.
  const completedTranscriptions = completedRunIds(transcriptionRunList);
  // A newer run's transcript replaces the one shown when it arrives: the page does not go back to "Loading…" meanwhile.
  const transcript = useQuery({ ...queries.transcript(workspace.id, recordingId, transcriptionRunList), placeholderData: (previous) => (previous?.recording_id === recordingId ? previous : undefined) });
  const latestAnalysis = completedRunIds(analysisRuns.data?.data ?? []);
  // The call categories its latest transcript meets (refreshed with the transcript).
  // Keyed by the runs they follow: asked for once the runs are known, not once before and again after.
  const categories = useQuery({ ...queries.recordingCategories(workspace.id, recordingId, transcriptionRunList), enabled: transcriptionRuns.isSuccess });
  const results = useQuery({ ...queries.analysisResults(workspace.id, recordingId, latestAnalysis), enabled: analysisRuns.isSuccess });
  const transcriptionScenarios = useTranscriptionScenarios(workspace.id);
  const analysisScenarios = useAnalysisScenarios(workspace.id);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: keys.transcriptionRuns(workspace.id, recordingId) }),
      client.invalidateQueries({ queryKey: keys.analysisRuns(workspace.id, recordingId) }),
      client.invalidateQueries({ queryKey: keys.recording(workspace.id, recordingId) }),
      client.invalidateQueries({ queryKey: keys.recordingCategories(workspace.id, recordingId) }),
    ]);
  const act = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', title: error instanceof ApiError ? error.problem.title : 'Refused', message: problemMessage(error) }),
  });

  const seek = useCallback((seconds: number) => player.current?.seekTo(seconds), []);
  const onTime = useCallback((seconds: number) => setTime(seconds), []);
  const { mutate } = act;
  const run = useCallback((call: () => Promise<unknown>) => mutate(call), [mutate]);
  const transcriptKey = queries.transcript(workspace.id, recordingId, transcriptionRunList).queryKey;
  const onCorrected = useCallback(
    (next: NonNullable<typeof transcript.data>) => {
      client.setQueryData(transcriptKey, next);
      void refresh();
    },
    // The key's parts, not the array made each render.
    [client, workspace.id, recordingId, completedTranscriptions],
  );
  const transcribing = transcriptionRuns.data?.data.some((run) => activeRun(run.status)) ?? false;

  if (recording.isError) return <ProblemAlert error={recording.error} />;
  // The page appears once with its call and transcript, not part by part as each answer arrives.
  if (!recording.data || transcriptionRuns.isPending || (latestCompleted !== null && transcript.isPending)) return <Text c="dimmed">Loading…</Text>;
  const r = recording.data;
  const hasAudio = r.audio_deleted_at === null && !preparingStatuses.has(r.status) && !failedStatuses.has(r.status);
  // Where the transcript's speakers are named: the transcription scenario its run used.
  const transcriptScenario = (transcriptionRunList.find((run) => run.id === transcript.data?.transcription_run_id) as { transcription_scenario_id?: string | null } | undefined)?.transcription_scenario_id;
  const speakersHref = transcriptScenario ? `/w/${workspace.id}/scenarios/transcription/${transcriptScenario}` : `/w/${workspace.id}/scenarios`;

  return (
    <Stack>
      <ReviewQueue workspaceId={workspace.id} recordingId={r.id} recordedAt={r.recorded_at} />
      <RecordingHeader workspaceId={workspace.id} recording={r} categories={categories.data?.data ?? NONE} writer={writer} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <TranscriptPanel
              ref={player}
              workspaceId={workspace.id}
              recording={r}
              hasAudio={hasAudio}
              transcript={transcript.data}
              transcribing={transcribing}
              writer={writer}
              startAt={startAt}
              time={time}
              onTime={onTime}
              onSeek={seek}
              onCorrected={onCorrected}
              speakersHref={speakersHref}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <RecordingWork
            workspaceId={workspace.id}
            recordingId={r.id}
            writer={writer}
            hasAudio={hasAudio}
            latestCompleted={latestCompleted}
            transcriptId={transcript.data?.id ?? null}
            segments={transcript.data?.segments}
            channels={r.channels ?? null}
            correctedVersion={transcript.data && transcript.data.version > 1 ? transcript.data.version : null}
            filename={r.filename}
            transcriptionScenarios={transcriptionScenarios.data?.data ?? NONE}
            analysisScenarios={analysisScenarios.data?.data ?? NONE}
            transcriptionRuns={transcriptionRuns.data?.data ?? NONE}
            analysisRuns={analysisRuns.data?.data ?? NONE}
            results={results.data?.data}
            act={run}
            acting={act.isPending}
            onSeek={seek}
          />
          <ReviewQueue workspaceId={workspace.id} recordingId={r.id} recordedAt={r.recorded_at} compact />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
