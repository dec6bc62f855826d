// Said on an analysis scenario whose questions are about a speaker (the agent, the customer) while
// some calls' latest transcripts have two channels and none of that name: they were transcribed
// before the channels were named, so those questions read everyone's words there. Found by the
// list's missing_speaker filter, so it is said on every visit until the calls are transcribed again
// (one click starts it, on the transcription scenario that names the speaker).
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { api, ok } from '../../api/client.ts';
import { queries, useTranscriptionScenarios } from '../../api/queries.ts';
import { ProblemAlert } from '../Problem.tsx';
import { TranscribingAgain } from './TranscribingAgain.tsx';
import { CORRECTIONS_NOT_CARRIED } from '../../lib/transcript-changes.ts';

/** The most calls one click transcribes again (one execution; the list's page size). */
const AT_MOST = 200;

/** `answerWith`: the analysis scenario to offer to answer on the calls once they are transcribed again. */
export function SpeakersMissingNotice({ workspaceId, speaker, writer, answerWith }: { workspaceId: string; speaker: string; writer: boolean; answerWith?: { id: string; name: string } }) {
  const scenarios = useTranscriptionScenarios(workspaceId);
  const naming = scenarios.data?.data.find((s) => Object.values(s.options.speaker_labels ?? {}).some((name) => name.toLowerCase() === speaker.toLowerCase()));
  const missing = useQuery({
    queryKey: ['missing-speaker', workspaceId, speaker],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings', { params: { path: { workspace_id: workspaceId }, query: { limit: AT_MOST, offset: 0, missing_speaker: speaker } } })),
  });
  const key = useMemo(() => crypto.randomUUID(), []);
  const again = useMutation({
    mutationFn: (ids: string[]) =>
      ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}/executions', { params: { path: { workspace_id: workspaceId, scenario_id: naming!.id } }, body: { recording_ids: ids, idempotency_key: key } })),
  });
  // A transcription by the naming scenario still under way (started here, or on an earlier visit): its progress, not a second start.
  const executions = useQuery({ ...queries.executions(workspaceId), enabled: naming !== undefined });
  const underWay = executions.data?.data.find((e) => e.kind === 'transcription' && e.scenario_id === naming?.id && (e.status === 'queued' || e.status === 'running'));
  const started = again.data ?? underWay;
  const calls = missing.data?.data ?? [];
  if (calls.length === 0) return null;
  const count = `${calls.length}${missing.data?.next_cursor ? '+' : ''} ${calls.length === 1 ? 'call' : 'calls'}`;
  return (
    <Alert color="yellow" title={`${count} cannot tell who the ${speaker} is`} role="status" data-speakers-missing={speaker}>
      <Stack gap="xs">
        <Text size="sm">
          {calls.length === 1 ? 'Its transcript has' : 'Their transcripts have'} two channels and none called “{speaker}” (transcribed before the channels were named), so questions about the {speaker} read everyone’s words there and are marked uncertain.
        </Text>
        {started ? (
          <TranscribingAgain workspaceId={workspaceId} execution={started} {...(answerWith ? { answerWith } : {})} />
        ) : naming ? (
          writer && (
            <>
              <Button size="xs" w="fit-content" onClick={() => again.mutate(calls.map((c) => c.id))} loading={again.isPending}>
                Transcribe {calls.length === 1 ? 'it' : 'them'} again with “{naming.name}”
              </Button>
              <Text size="xs" c="dimmed">
                {CORRECTIONS_NOT_CARRIED}
              </Text>
            </>
          )
        ) : (
          <Text size="sm">
            No transcription scenario names a channel “{speaker}” yet: name the channels in one (
            <Anchor component={Link} to={`/w/${workspaceId}/scenarios`}>
              Scenarios
            </Anchor>
            ), then transcribe these calls again.
          </Text>
        )}
        <ProblemAlert error={again.error} title="Not started" />
      </Stack>
    </Alert>
  );
}
