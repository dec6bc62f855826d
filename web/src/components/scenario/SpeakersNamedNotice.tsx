// Said where the speakers of a transcription scenario were just named anew: on a Call QA scenario
// added from its template (channel 0 "agent", channel 1 "customer"), or on the transcription
// scenario saved with other channel names. Calls transcribed before keep the names they had
// (channel_0 and channel_1), so questions and categories about the agent or the customer find
// nobody in them until they are transcribed again, which one click starts (one execution).
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { api, ok } from '../../api/client.ts';
import { useTranscriptionScenarios } from '../../api/queries.ts';
import { ProblemAlert } from '../Problem.tsx';
import { TranscribingAgain } from './TranscribingAgain.tsx';
import { CORRECTIONS_NOT_CARRIED } from '../../lib/transcript-changes.ts';

/** The pipeline statuses of a call that has a transcript. */
const TRANSCRIBED = 'transcribed,analysing,analysed';

/**
 * `answerWith`: the analysis scenario to offer to answer on the calls once they are transcribed
 * again. `otherChanges`: what else a save changed that transcripts made before do not have (the
 * vocabulary, the phrases to find…), said beside the channel names or alone.
 */
export function SpeakersNamedNotice({
  workspaceId,
  transcriptionScenarioId,
  byHand = false,
  renamed = true,
  otherChanges = [],
  answerWith,
}: {
  workspaceId: string;
  transcriptionScenarioId: string;
  byHand?: boolean;
  renamed?: boolean;
  otherChanges?: string[];
  answerWith?: { id: string; name: string };
}) {
  const shown = useRef<HTMLDivElement>(null);
  const scenarios = useTranscriptionScenarios(workspaceId);
  const name = scenarios.data?.data.find((s) => s.id === transcriptionScenarioId)?.name ?? 'the transcription scenario';
  // Only worth saying where some call was transcribed already.
  const earlier = useQuery({
    queryKey: ['transcribed-before', workspaceId, transcriptionScenarioId],
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings', { params: { path: { workspace_id: workspaceId }, query: { limit: 1, offset: 0, pipeline_status: TRANSCRIBED } } })),
    staleTime: Infinity,
  });
  const key = useMemo(() => crypto.randomUUID(), []);
  const again = useMutation({
    mutationFn: () =>
      ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}/executions', { params: { path: { workspace_id: workspaceId, scenario_id: transcriptionScenarioId } }, body: { idempotency_key: key } })),
  });
  const visible = earlier.data !== undefined && earlier.data.data.length > 0;
  // Appearing below Save, it is brought into view (a tall form left it under the fold).
  useEffect(() => {
    if (visible) shown.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [visible]);
  if (!visible) return null;
  const others = otherChanges.length > 0 ? `Its ${otherChanges.join(' and ')} changed too: transcripts made before were made without the change.` : '';
  return (
    <Alert ref={shown} color="blue" title="Earlier calls need transcribing again" role="status">
      <Stack gap="xs">
        <Text size="sm">
          {!renamed
            ? `“${name}” now transcribes otherwise (its ${otherChanges.join(' and ')}). Calls transcribed before keep the transcripts they had until they are transcribed again.`
            : byHand
              ? `“${name}” names its channels anew. Calls transcribed before keep the names they had: until they are transcribed again, questions and categories about a speaker cannot tell who said what in them. ${others}`.trim()
              : `Call QA asks about the agent and the customer, so “${name}” now names channel 0 “agent” and channel 1 “customer”. Calls transcribed before keep “channel_0” and “channel_1”: until they are transcribed again, Call QA cannot tell who said what in them.`}
        </Text>
        {again.data ? (
          <TranscribingAgain workspaceId={workspaceId} execution={again.data} {...(answerWith ? { answerWith } : {})} />
        ) : (
          <>
            <Button size="xs" w="fit-content" onClick={() => again.mutate()} loading={again.isPending}>
              Transcribe earlier calls again
            </Button>
            <Text size="xs" c="dimmed">
              {CORRECTIONS_NOT_CARRIED}
            </Text>
          </>
        )}
        <ProblemAlert error={again.error} title="Not started" />
      </Stack>
    </Alert>
  );
}
