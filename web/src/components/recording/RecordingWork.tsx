// The work on a recording: new runs with a chosen scenario, the answers (each scenario's latest,
// earlier ones folded), and the runs of both kinds with Cancel and Retry. The pickers are the
// browser's own selects and only the open tab is rendered: the page renders less as it loads.
// A writer teaches a scenario's yes/no question from a passage of its latest answer (the passage
// becomes one of the question's examples) and the call is analysed again, and reviews its answers
// (right, or wrong and what is right), which reports then count.
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { api, ok, workspacePath, type Schemas } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { examplesOf, withExample } from '../../lib/examples.ts';
import { defaultAnalysisScenario, latestPerScenario } from '../../lib/latest-per-scenario.ts';
import { AnalysisResultCard, type Teaching } from '../AnalysisResultCard.tsx';
import type { Reviewing } from '../AnswerReview.tsx';
import { RunList } from '../RunList.tsx';
import { changedElsewhere } from '../scenario/use-scenario-editor.ts';

interface Props {
  workspaceId: string;
  recordingId: string;
  writer: boolean;
  hasAudio: boolean;
  /** The transcription run whose transcript is shown (analysis needs one). */
  latestCompleted: string | null;
  /** The transcript shown (the recording's latest), to tell answers read from an earlier one. */
  transcriptId: string | null;
  /** The recording's audio channels, once prepared (one: everyone on it). */
  channels: number | null;
  /** The version of the transcript shown where a person corrected it (above 1), else null. */
  correctedVersion: number | null;
  /** The recording's file name, for the corrected transcript's download. */
  filename: string;
  /** The segments of the transcript shown: a phrase an answer found is shown in its turn. */
  segments: readonly { start: number; end: number; text: string }[] | undefined;
  transcriptionScenarios: Schemas['TranscriptionScenario'][];
  analysisScenarios: Schemas['AnalysisScenario'][];
  transcriptionRuns: Schemas['TranscriptionRun'][];
  analysisRuns: Schemas['AnalysisRun'][];
  results: Schemas['AnalysisResult'][] | undefined;
  /** Runs a request that changes the runs, then refreshes them. */
  act: (call: () => Promise<unknown>) => void;
  /** A request made with `act` is under way. */
  acting: boolean;
  onSeek: (seconds: number) => void;
}

export const RecordingWork = memo(function RecordingWork({ workspaceId, recordingId, writer, hasAudio, latestCompleted, transcriptId, channels, correctedVersion, filename, segments, transcriptionScenarios, analysisScenarios, transcriptionRuns, analysisRuns, results, act, acting, onSeek }: Props) {
  const client = useQueryClient();
  const [transcriptionScenario, setTranscriptionScenario] = useState<string | null>(null);
  // The scenario a run without one gets (the server's choice): the automatic one, else the oldest.
  const defaultTranscription = (transcriptionScenarios.find((s) => s.auto) ?? transcriptionScenarios[0])?.id ?? '';
  const chosenTranscription = transcriptionScenario ?? defaultTranscription;
  const transcriptionOptions = transcriptionScenarios.map((s) => ({ value: s.id, label: s.auto ? `${s.name} (automatic)` : s.name }));
  // Transcribing a corrected call again shows a new transcript in place of the corrected one: asked first.
  const [confirming, setConfirming] = useState(false);
  const transcribe = () => {
    setConfirming(false);
    act(() =>
      ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/transcription-runs', { params: { path: { workspace_id: workspaceId, recording_id: recordingId } }, body: chosenTranscription ? { transcription_scenario_id: chosenTranscription } : {} })),
    );
  };
  const [analysisScenario, setAnalysisScenario] = useState<string | null>(null);
  const chosenAnalysis = analysisScenario ?? defaultAnalysisScenario(analysisScenarios, analysisRuns);
  const path = { workspace_id: workspaceId };
  const tName = (run: { transcription_scenario_id?: string }) => transcriptionScenarios.find((s) => s.id === run.transcription_scenario_id)?.name ?? 'Transcription';
  const aName = (id: string) => analysisScenarios.find((s) => s.id === id)?.name ?? 'Analysis';
  const teaching = (scenarioId: string): Teaching | undefined =>
    !writer || !latestCompleted
      ? undefined
      : {
          examplesOf: (questionId) => examplesOf(analysisScenarios.find((s) => s.id === scenarioId)?.questions.find((q) => q.id === questionId)),
          teach: (questionId, sentence) =>
            act(async () => {
              const scenarioPath = { ...path, scenario_id: scenarioId };
              // The scenario as it is now, not as this page last read it; saved as an edit of that
              // version, so an editor left open elsewhere is told before it writes its own questions.
              // Saved elsewhere between the read and the save, it is read again once.
              let next: ReturnType<typeof withExample> | undefined;
              for (let attempt = 1; next === undefined; attempt++) {
                const current = await ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}', { params: { path: scenarioPath } }));
                const change = withExample(current.questions, questionId, sentence);
                if ('refused' in change) {
                  notifications.show({ color: 'yellow', message: change.refused });
                  await client.invalidateQueries({ queryKey: keys.analysisScenarios(workspaceId) });
                  return;
                }
                try {
                  if ('questions' in change) await ok(api.PATCH('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}', { params: { path: scenarioPath }, body: { version: current.version, questions: change.questions } }));
                  next = change;
                } catch (error) {
                  if (!changedElsewhere(error) || attempt === 2) throw error;
                }
              }
              await Promise.all([client.invalidateQueries({ queryKey: keys.analysisScenarios(workspaceId) }), client.invalidateQueries({ queryKey: keys.analysisScenario(workspaceId, scenarioId) })]);
              await ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/analysis-runs', { params: { path: { ...path, recording_id: recordingId } }, body: { analysis_scenario_id: scenarioId } }));
              notifications.show({ color: 'green', message: `${'questions' in next ? 'Added to the question’s examples' : 'Already one of the question’s examples'}; analysing the call again.` });
            }),
          busy: acting,
        };

  // Reviewing an answer changes the result, which the runs do not show: it is read again.
  const reviewing = (runId: string, scenarioId: string): Reviewing | undefined => {
    if (!writer) return undefined;
    const reviewPath = (questionId: string) => ({ ...path, run_id: runId, question_id: questionId });
    // The answers across calls and the reports count the review too: read again when next shown.
    const reread = () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.analysisResults(workspaceId, recordingId) }),
        client.invalidateQueries({ queryKey: keys.answers(workspaceId, scenarioId) }),
        client.invalidateQueries({ queryKey: keys.reports(workspaceId) }),
      ]);
    // Read again also when refused: a result superseded since the page read it gives way to the new one.
    const thenReread = (call: () => Promise<unknown>) =>
      act(async () => {
        try {
          await call();
        } finally {
          await reread();
        }
      });
    return {
      review: (questionId, answer, note) =>
        thenReread(() => ok(api.PUT('/api/v1/workspaces/{workspace_id}/analysis-runs/{run_id}/answers/{question_id}/review', { params: { path: reviewPath(questionId) }, body: note ? { answer, note } : { answer } }))),
      undo: (questionId) => thenReread(() => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/analysis-runs/{run_id}/answers/{question_id}/review', { params: { path: reviewPath(questionId) } }))),
      busy: acting,
    };
  };

  return (
    <Stack>
      {writer && hasAudio && (
        <Stack gap="xs">
          <Group align="end" gap="xs" wrap="nowrap">
            <NativeSelect
              label="Transcribe with"
              data={transcriptionOptions}
              // A long name is cut in the box: the whole of it on hover.
              title={transcriptionOptions.find((o) => o.value === chosenTranscription)?.label}
              value={chosenTranscription}
              onChange={(event) => setTranscriptionScenario(event.currentTarget.value || null)}
              flex={1}
            />
            <Button onClick={() => (correctedVersion !== null ? setConfirming(true) : transcribe())} disabled={confirming}>
              Transcribe
            </Button>
          </Group>
          {confirming && correctedVersion !== null && (
            <Alert color="yellow" variant="light" data-corrected-warning title="This transcript was corrected by hand">
              <Stack gap="xs">
                <Text size="sm">
                  A new transcription is made from the audio again: it will show in place of version {correctedVersion}, without the corrections. The corrected transcript stays with its run;{' '}
                  <Anchor href={workspacePath(workspaceId, `/recordings/${recordingId}/transcript?format=txt`)} download={`${filename.replace(/\.[^.]*$/, '')}-corrected.txt`}>
                    download it (TXT)
                  </Anchor>{' '}
                  to keep it at hand.
                </Text>
                <Group gap="xs">
                  <Button size="xs" onClick={transcribe}>
                    Transcribe anyway
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                    Keep the corrected one
                  </Button>
                </Group>
              </Stack>
            </Alert>
          )}
          <Group align="end" gap="xs" wrap="nowrap">
            <NativeSelect label="Analyse with" data={analysisScenarios.map((s) => ({ value: s.id, label: s.name }))} title={analysisScenarios.find((s) => s.id === chosenAnalysis)?.name} value={chosenAnalysis ?? ''} onChange={(event) => setAnalysisScenario(event.currentTarget.value)} flex={1} />
            <Button
              disabled={!latestCompleted || !chosenAnalysis}
              onClick={() =>
                chosenAnalysis &&
                act(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/analysis-runs', { params: { path: { ...path, recording_id: recordingId } }, body: { analysis_scenario_id: chosenAnalysis } })))
              }
            >
              Analyse
            </Button>
          </Group>
        </Stack>
      )}
      <Tabs defaultValue="results" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="results">Answers</Tabs.Tab>
          <Tabs.Tab value="runs">Runs</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="results" pt="sm">
          <Stack>
            {results?.length === 0 && <Text c="dimmed" size="sm">No answers yet: analyse the transcript with a scenario.</Text>}
            {latestPerScenario(results ?? []).map(({ latest, earlier }) => (
              <Stack key={latest.analysis_run_id} gap={4}>
                <AnalysisResultCard
                  result={latest}
                  scenarioName={aName(latest.analysis_scenario_id)}
                  onSeek={onSeek}
                  // A passage of an earlier transcript may hold words since corrected: not taught as an example.
                  teaching={transcriptId !== null && latest.transcript_id !== transcriptId ? undefined : teaching(latest.analysis_scenario_id)}
                  reviewing={reviewing(latest.analysis_run_id, latest.analysis_scenario_id)}
                  earlierTranscript={transcriptId !== null && latest.transcript_id !== transcriptId}
                  oneChannel={channels === 1}
                  segments={latest.transcript_id === transcriptId ? segments : undefined}
                />
                {earlier.length > 0 && (
                  <details data-earlier={latest.analysis_scenario_id}>
                    <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-sm)' }}>
                      {earlier.length} earlier {earlier.length === 1 ? 'result' : 'results'} of {aName(latest.analysis_scenario_id)}
                    </summary>
                    <Stack gap="xs" mt="xs">
                      {earlier.map((result) => (
                        <AnalysisResultCard key={result.analysis_run_id} result={result} scenarioName={aName(result.analysis_scenario_id)} onSeek={onSeek} />
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
              runs={transcriptionRuns}
              scenarioName={(run) => tName(run as { transcription_scenario_id?: string })}
              canWrite={writer}
              onCancel={(id) => act(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-runs/{run_id}/cancel', { params: { path: { ...path, run_id: id } } })))}
              onRetry={(id) => act(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-runs/{run_id}/retry', { params: { path: { ...path, run_id: id } } })))}
              // Each run's own transcript (its newest version: corrected, where it was), kept when the call is transcribed again.
              transcriptFile={(run) => ({ href: workspacePath(workspaceId, `/transcription-runs/${run.id}/transcript?format=txt`), name: `${filename.replace(/\.[^.]*$/, '')}-${run.created_at.slice(0, 10)}-${run.id.slice(-6)}.txt` })}
            />
            <Text fw={600} size="sm">
              Analysis runs
            </Text>
            <RunList
              label="Analysis runs"
              runs={analysisRuns}
              scenarioName={(run) => aName((run as { analysis_scenario_id: string }).analysis_scenario_id)}
              canWrite={writer}
              onCancel={(id) => act(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-runs/{run_id}/cancel', { params: { path: { ...path, run_id: id } } })))}
              onRetry={(id) => act(() => ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-runs/{run_id}/retry', { params: { path: { ...path, run_id: id } } })))}
            />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
});
