// The progress of calls being transcribed again (one transcription execution), where they were sent
// to it: "4 of 6 transcribed", then, once done, the offer to answer an analysis scenario on them
// again (its answers were read from the transcripts before).
import { Anchor, Button, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../../api/client.ts';
import { ProblemAlert } from '../Problem.tsx';

type Execution = Schemas['Execution'];

export function TranscribingAgain({ workspaceId, execution, answerWith }: { workspaceId: string; execution: Execution; answerWith?: { id: string; name: string } }) {
  const client = useQueryClient();
  const live = useQuery({
    queryKey: ['transcribing-again', workspaceId, execution.id],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}/executions/{execution_id}', { params: { path: { workspace_id: workspaceId, scenario_id: execution.scenario_id, execution_id: execution.id } } })),
    initialData: execution,
    refetchInterval: (q) => (q.state.data?.status === 'queued' || q.state.data?.status === 'running' ? 2000 : false),
  });
  const now = live.data;
  const total = now.recording_ids.length;
  const done = now.counts.completed + now.counts.failed + now.counts.cancelled + now.counts.deleted;
  const finished = now.status !== 'queued' && now.status !== 'running';
  const key = useMemo(() => crypto.randomUUID(), []);
  const answer = useMutation({
    mutationFn: (scenarioId: string) =>
      ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}/executions', { params: { path: { workspace_id: workspaceId, scenario_id: scenarioId } }, body: { recording_ids: now.recording_ids, idempotency_key: key } })),
    // The calls that could not tell a speaker apart are asked for again.
    onSuccess: () => void client.invalidateQueries({ queryKey: ['missing-speaker', workspaceId] }),
  });
  return (
    <Stack gap={6} data-transcribing-again={now.status}>
      <Text size="sm">
        {finished ? `Transcribed again: ${now.counts.completed} of ${total} ${total === 1 ? 'call' : 'calls'}${now.counts.failed > 0 ? `, ${now.counts.failed} failed` : ''}.` : `Transcribing ${total} ${total === 1 ? 'call' : 'calls'} again: ${done} of ${total} done.`}
      </Text>
      {!finished && <Progress value={total === 0 ? 0 : (done / total) * 100} size="sm" aria-label={`${done} of ${total} transcribed again`} w={240} />}
      {finished &&
        answerWith &&
        now.counts.completed > 0 &&
        (answer.data ? (
          <Text size="sm">
            Answering “{answerWith.name}” on them again (
            <Anchor component={Link} to={`/w/${workspaceId}/scenarios/analysis/${answerWith.id}/answers?execution_id=${answer.data.id}`}>
              its answers
            </Anchor>
            ).
          </Text>
        ) : (
          <Button size="xs" w="fit-content" onClick={() => answer.mutate(answerWith.id)} loading={answer.isPending}>
            Answer “{answerWith.name}” on them again
          </Button>
        ))}
      {finished && !answerWith && (
        <Text size="sm">
          Use Run on recordings… on a scenario to answer its questions on them again (
          <Anchor component={Link} to={`/w/${workspaceId}/executions`}>
            Executions
          </Anchor>
          ).
        </Text>
      )}
      <ProblemAlert error={answer.error} title="Not started" />
    </Stack>
  );
}
