// A recording: player with waveform beside its transcript (the word being heard lit, a click
// seeks), exports, runs of both kinds with Cancel and Retry, new runs with a chosen scenario, and
// analysis results whose evidence seeks the audio.
import { Alert, Anchor, Badge, Button, Code, Grid, Group, Modal, Select, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, ApiError, ok, okJson, workspacePath } from '../api/client.ts';
import { activeRun, useAnalysisScenarios, useTranscriptionScenarios } from '../api/queries.ts';
import { AnalysisResultCard } from '../components/AnalysisResultCard.tsx';
import { AudioPlayer, type PlayerHandle } from '../components/AudioPlayer.tsx';
import { ProblemAlert, problemMessage } from '../components/Problem.tsx';
import { RunList } from '../components/RunList.tsx';
import { movingPipeline, PipelineBadge } from '../components/Status.tsx';
import { TranscriptEditor } from '../components/TranscriptEditor.tsx';
import { TranscriptView } from '../components/TranscriptView.tsx';
import { CallTimeline } from '../components/CallTimeline.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { formatTime } from '../lib/transcript-sync.ts';
import { can } from '../session.tsx';
import { failedStatuses, preparingStatuses } from '../lib/recording-status.ts';
import { formatDate, formatDateTime } from '../lib/dates.ts';


export default function Recording() {
  const workspace = useWorkspace();
  const { recordingId = '' } = useParams();
  // ?t=12.5 (a search hit) stands the player at that time.
  const startAt = Number(useSearchParams()[0].get('t')) || undefined;
  const client = useQueryClient();
  const navigate = useNavigate();
  const player = useRef<PlayerHandle>(null);
  const [time, setTime] = useState(0);
  const [transcriptionScenario, setTranscriptionScenario] = useState<string | null>(null);
  const [analysisScenario, setAnalysisScenario] = useState<string | null>(null);
  const [correcting, setCorrecting] = useState(false);
  const [deleting, { open: askDelete, close: cancelDelete }] = useDisclosure(false);
  const [newUrl, setNewUrl] = useState('');
  const path = { workspace_id: workspace.id };
  const writer = can.write(workspace.role);

  const recording = useQuery({
    queryKey: ['recording', workspace.id, recordingId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path: { ...path, recording_id: recordingId } } })),
    // Polled while the audio is prepared or a run moves the call along the pipeline.
    refetchInterval: (q) => (q.state.data && (preparingStatuses.has(q.state.data.status) || movingPipeline.has(q.state.data.pipeline.status)) ? 1500 : false),
  });
  const transcriptionRuns = useQuery({
    queryKey: ['transcription-runs', workspace.id, recordingId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/transcription-runs', { params: { path, query: { recording_id: recordingId, limit: 50 } } })),
    refetchInterval: (q) => (q.state.data?.data.some((r) => activeRun(r.status)) ? 1500 : false),
  });
  const analysisRuns = useQuery({
    queryKey: ['analysis-runs', workspace.id, recordingId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-runs', { params: { path, query: { recording_id: recordingId, limit: 50 } } })),
    refetchInterval: (q) => (q.state.data?.data.some((r) => activeRun(r.status)) ? 1500 : false),
  });
  const latestCompleted = transcriptionRuns.data?.data.find((r) => r.status === 'completed')?.id ?? null;
  const transcript = useQuery({
    queryKey: ['transcript', workspace.id, recordingId, latestCompleted],
    enabled: latestCompleted !== null,
    queryFn: () => okJson(api.GET('/api/v1/workspaces/{workspace_id}/transcription-runs/{run_id}/transcript', { params: { path: { ...path, run_id: latestCompleted! }, query: {} } })),
  });
  const latestAnalysis = analysisRuns.data?.data.filter((r) => r.status === 'completed').map((r) => r.id).join(',') ?? '';
  // The call categories its latest transcript meets (refreshed with the transcript).
  const categories = useQuery({
    queryKey: ['recording-categories', workspace.id, recordingId, latestCompleted],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/categories', { params: { path: { ...path, recording_id: recordingId } } })),
  });
  const results = useQuery({
    queryKey: ['analysis-results', workspace.id, recordingId, latestAnalysis],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-results', { params: { path, query: { recording_id: recordingId, limit: 20 } } })),
  });
  const transcriptionScenarios = useTranscriptionScenarios(workspace.id);
  const analysisScenarios = useAnalysisScenarios(workspace.id);
  const chosenAnalysis = analysisScenario ?? analysisScenarios.data?.data[0]?.id ?? null;

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: ['transcription-runs', workspace.id, recordingId] }),
      client.invalidateQueries({ queryKey: ['analysis-runs', workspace.id, recordingId] }),
      client.invalidateQueries({ queryKey: ['recording', workspace.id, recordingId] }),
      client.invalidateQueries({ queryKey: ['recording-categories', workspace.id, recordingId] }),
    ]);
  const act = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', title: error instanceof ApiError ? error.problem.title : 'Refused', message: problemMessage(error) }),
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path: { ...path, recording_id: recordingId } } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['recordings', workspace.id] });
      navigate(`/w/${workspace.id}/recordings`);
    },
  });
  const retryImport = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/import/retry', { params: { path: { ...path, recording_id: recordingId } }, body: newUrl ? { url: newUrl } : {} })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['recording', workspace.id, recordingId] }),
  });

  const seek = useCallback((seconds: number) => player.current?.seekTo(seconds), []);
  const onTime = useCallback((seconds: number) => setTime(seconds), []);

  if (recording.isError) return <ProblemAlert error={recording.error} />;
  if (!recording.data) return <Text c="dimmed">Loading…</Text>;
  const r = recording.data;
  const audioUrl = workspacePath(workspace.id, `/recordings/${r.id}/audio`);
  const hasAudio = r.audio_deleted_at === null && !preparingStatuses.has(r.status) && !failedStatuses.has(r.status);
  const tName = (run: { transcription_scenario_id?: string }) => transcriptionScenarios.data?.data.find((s) => s.id === run.transcription_scenario_id)?.name ?? 'Transcription';
  const aName = (id: string) => analysisScenarios.data?.data.find((s) => s.id === id)?.name ?? 'Analysis';
  const exportUrl = (format: string) => workspacePath(workspace.id, `/recordings/${r.id}/transcript?format=${format}`);
  const base = r.filename.replace(/\.[^.]*$/, '');

  return (
    <Stack>
      <Anchor component={Link} to={`/w/${workspace.id}/recordings`} size="sm">
        ← Recordings
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} fz="h2" style={{ wordBreak: 'break-word' }}>
            {r.filename}
          </Title>
          <Group gap="xs">
            <PipelineBadge pipeline={r.pipeline} />
            {r.duration_seconds !== null && <Text size="sm">{formatTime(r.duration_seconds)}</Text>}
            <Text size="sm" c="dimmed">
              added {formatDateTime(r.created_at)} · audio kept until {formatDate(r.expires_at)}
            </Text>
          </Group>
          {categories.data && categories.data.data.length > 0 && (
            <Group gap={6} aria-label="Categories">
              {categories.data.data.map((c) => (
                <Badge key={c.id} variant="outline" color="grape" tt="none" data-category={c.name}>
                  {c.name}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
        {writer && (
          <Button color="red" variant="light" onClick={askDelete}>
            Delete
          </Button>
        )}
      </Group>
      {Object.keys(r.metadata).length > 0 && <Code block>{JSON.stringify(r.metadata, null, 2)}</Code>}
      {r.error_code && (
        <Alert color="red" title={`Failed: ${r.error_code}`}>
          {r.error_message}
        </Alert>
      )}
      {r.status === 'download_failed' && writer && (
        <Group align="end">
          <TextInput label="Retry the download with a new URL (or leave empty to retry the same)" value={newUrl} onChange={(e) => setNewUrl(e.currentTarget.value)} w={420} />
          <Button onClick={() => retryImport.mutate()} loading={retryImport.isPending}>
            Retry download
          </Button>
          <ProblemAlert error={retryImport.error} />
        </Group>
      )}
      {r.audio_deleted_at !== null && <Alert color="gray">The audio was deleted by its retention on {formatDate(r.audio_deleted_at)}; transcripts and results stay.</Alert>}
      {preparingStatuses.has(r.status) && <Alert color="blue">Preparing the audio… this page updates by itself.</Alert>}

      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            {hasAudio && (
              <AudioPlayer
                ref={player}
                src={audioUrl}
                waveformSrc={workspacePath(workspace.id, `/recordings/${r.id}/waveform`)}
                onTime={onTime}
                startAt={startAt}
                timeline={transcript.data ? (duration) => <CallTimeline transcript={transcript.data} duration={duration} onSeek={seek} /> : undefined}
              />
            )}
            {transcript.data ? (
              <>
                <Group gap="xs" justify="space-between">
                  <Group gap="xs">
                    <Text size="sm" c="dimmed">
                      Download:
                    </Text>
                    {['txt', 'srt', 'vtt'].map((format) => (
                      <Anchor key={format} href={exportUrl(format)} download={`${base}.${format}`} size="sm">
                        {format.toUpperCase()}
                      </Anchor>
                    ))}
                  </Group>
                  <Group gap="xs">
                    {transcript.data.version > 1 && (
                      <Text size="xs" c="dimmed" data-version={transcript.data.version}>
                        Corrected · version {transcript.data.version}
                      </Text>
                    )}
                    {writer && !correcting && (
                      <Button size="compact-sm" variant="default" onClick={() => setCorrecting(true)}>
                        Correct
                      </Button>
                    )}
                  </Group>
                </Group>
                {correcting ? (
                  <TranscriptEditor
                    workspaceId={workspace.id}
                    transcript={transcript.data}
                    onCancel={() => setCorrecting(false)}
                    onSaved={(next) => {
                      client.setQueryData(['transcript', workspace.id, recordingId, latestCompleted], next);
                      setCorrecting(false);
                      void refresh();
                    }}
                  />
                ) : (
                  <TranscriptView transcript={transcript.data} time={time} onSeek={seek} />
                )}
              </>
            ) : (
              <Text c="dimmed">{transcriptionRuns.data?.data.some((run) => activeRun(run.status)) ? 'Transcribing… the transcript appears here when it is done.' : 'No transcript yet.'}</Text>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            {writer && hasAudio && (
              <Stack gap="xs">
                <Group align="end" gap="xs" wrap="nowrap">
                  <Select label="Transcribe with" placeholder="Default scenario" data={transcriptionScenarios.data?.data.map((s) => ({ value: s.id, label: s.name })) ?? []} value={transcriptionScenario} onChange={setTranscriptionScenario} flex={1} />
                  <Button
                    onClick={() =>
                      act.mutate(() =>
                        ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/transcription-runs', { params: { path: { ...path, recording_id: r.id } }, body: transcriptionScenario ? { transcription_scenario_id: transcriptionScenario } : {} })),
                      )
                    }
                  >
                    Transcribe
                  </Button>
                </Group>
                <Group align="end" gap="xs" wrap="nowrap">
                  <Select label="Analyse with" data={analysisScenarios.data?.data.map((s) => ({ value: s.id, label: s.name })) ?? []} value={chosenAnalysis} onChange={setAnalysisScenario} allowDeselect={false} flex={1} />
                  <Button
                    disabled={!latestCompleted || !chosenAnalysis}
                    onClick={() =>
                      chosenAnalysis &&
                      act.mutate(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/analysis-runs', { params: { path: { ...path, recording_id: r.id } }, body: { analysis_scenario_id: chosenAnalysis } })))
                    }
                  >
                    Analyse
                  </Button>
                </Group>
              </Stack>
            )}
            <Tabs defaultValue="results">
              <Tabs.List>
                <Tabs.Tab value="results">Answers</Tabs.Tab>
                <Tabs.Tab value="runs">Runs</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="results" pt="sm">
                <Stack>
                  {results.data?.data.length === 0 && <Text c="dimmed" size="sm">No answers yet: analyse the transcript with a scenario.</Text>}
                  {latestPerScenario(results.data?.data ?? []).map(({ latest, earlier }) => (
                    <Stack key={latest.analysis_run_id} gap={4}>
                      <AnalysisResultCard result={latest} scenarioName={aName(latest.analysis_scenario_id)} onSeek={seek} />
                      {earlier.length > 0 && (
                        <details data-earlier={latest.analysis_scenario_id}>
                          <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-sm)' }}>
                            {earlier.length} earlier {earlier.length === 1 ? 'result' : 'results'} of {aName(latest.analysis_scenario_id)}
                          </summary>
                          <Stack gap="xs" mt="xs">
                            {earlier.map((result) => (
                              <AnalysisResultCard key={result.analysis_run_id} result={result} scenarioName={aName(result.analysis_scenario_id)} onSeek={seek} />
                            ))}
                          </Stack>
                        </details>
                      )}
                    </Stack>
                  ))}
                </Stack>
              </Tabs.Panel>
              <Tabs.Panel value="runs" pt="sm">
                <Stack>
                  <Text fw={600} size="sm">
                    Transcription runs
                  </Text>
                  <RunList
                    label="Transcription runs"
                    runs={transcriptionRuns.data?.data ?? []}
                    scenarioName={(run) => tName(run as { transcription_scenario_id?: string })}
                    canWrite={writer}
                    onCancel={(id) => act.mutate(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-runs/{run_id}/cancel', { params: { path: { ...path, run_id: id } } })))}
                    onRetry={(id) => act.mutate(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-runs/{run_id}/retry', { params: { path: { ...path, run_id: id } } })))}
                  />
                  <Text fw={600} size="sm">
                    Analysis runs
                  </Text>
                  <RunList
                    label="Analysis runs"
                    runs={analysisRuns.data?.data ?? []}
                    scenarioName={(run) => aName((run as { analysis_scenario_id: string }).analysis_scenario_id)}
                    canWrite={writer}
                    onCancel={(id) => act.mutate(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-runs/{run_id}/cancel', { params: { path: { ...path, run_id: id } } })))}
                    onRetry={(id) => act.mutate(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-runs/{run_id}/retry', { params: { path: { ...path, run_id: id } } })))}
                  />
                </Stack>
              </Tabs.Panel>
            </Tabs>
          </Stack>
        </Grid.Col>
      </Grid>

      <Modal opened={deleting} onClose={cancelDelete} title="Delete this recording?" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">The audio, its transcripts and its analysis results are deleted for good.</Text>
          <ProblemAlert error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancelDelete}>
              Keep it
            </Button>
            <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Results newest first, grouped by scenario: each scenario's latest, its earlier ones folded under it. */
function latestPerScenario<R extends { analysis_scenario_id: string }>(results: R[]): { latest: R; earlier: R[] }[] {
  const groups = new Map<string, { latest: R; earlier: R[] }>();
  for (const result of results) {
    const group = groups.get(result.analysis_scenario_id);
    if (group) group.earlier.push(result);
    else groups.set(result.analysis_scenario_id, { latest: result, earlier: [] });
  }
  return [...groups.values()];
}
