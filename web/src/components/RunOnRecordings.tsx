// "Run on recordings…": picks the workspace's prepared recordings that match a filter and starts
// one execution over them, with an idempotency key made once per dialog (a double click or a
// retried request never starts the work twice).
import { Button, Checkbox, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ok } from '../api/client.ts';
import { queries, useMetadataFields } from '../api/queries.ts';
import { emptyFilters, filtersToQuery, type RecordingFilters } from '../lib/filters.ts';
import { ProblemAlert } from './Problem.tsx';
import { RecordingFiltersBar } from './RecordingFiltersBar.tsx';

const MAX_RECORDINGS = 10_000;

/**
 * The list's query for these filters: prepared recordings (unless the audio's status is given), and
 * for an analysis those with a transcript (unless a status is picked): an analysis of a recording
 * without one is refused.
 */
const matchQuery = (filters: RecordingFilters, kind: 'analysis' | 'transcription', corrected?: 'true' | 'false') => ({
  ...filtersToQuery({ ...filters, status: filters.status ?? 'completed', stage: filters.stage ?? (kind === 'analysis' ? 'transcribed,analysing,analysed' : null) }),
  ...(corrected ? { corrected } : {}),
});

async function matchingIds(workspaceId: string, query: Record<string, string | string[]>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const pageQuery: Record<string, string | string[] | number> = { limit: 200, offset: 0, ...query, ...(cursor ? { cursor } : {}) };
    const page: { data: { id: string }[]; next_cursor: string | null } = await ok(api.GET('/api/v1/workspaces/{workspace_id}/recordings', { params: { path: { workspace_id: workspaceId }, query: pageQuery as { limit: number; offset: number } } }));
    ids.push(...page.data.map((r) => r.id));
    cursor = page.next_cursor;
  } while (cursor && ids.length < MAX_RECORDINGS);
  return ids.slice(0, MAX_RECORDINGS);
}

export function RunOnRecordings({ workspaceId, kind, scenarioId, opened, onClose }: { workspaceId: string; kind: 'transcription' | 'analysis'; scenarioId: string; opened: boolean; onClose: () => void }) {
  const [filters, setFilters] = useState<RecordingFilters>(emptyFilters);
  const [typing, setTyping] = useState(false);
  const fields = useMetadataFields(workspaceId);
  const navigate = useNavigate();
  // A transcription makes new transcripts without the corrections made by hand: calls corrected
  // are counted, said, and left out unless the person chooses to include them.
  const [includeCorrected, setIncludeCorrected] = useState(false);
  // Unticked each time the dialog opens.
  useEffect(() => {
    if (opened) setIncludeCorrected(false);
  }, [opened]);
  const correctedCount = useQuery({ ...queries.matchingRecordings(workspaceId, matchQuery(filters, kind, 'true')), enabled: opened && kind === 'transcription' });
  const corrected = kind === 'transcription' ? (correctedCount.data ?? 0) : 0;
  // Left out whether or not the count has come (a Start before it, or its request failed).
  const query = matchQuery(filters, kind, kind === 'transcription' && !includeCorrected ? 'false' : undefined);
  // How many the filters find, asked again as they change, so Start says what it will do.
  const matching = useQuery({ ...queries.matchingRecordings(workspaceId, query), enabled: opened });
  // One key per opening of the dialog.
  const key = useMemo(() => (opened ? crypto.randomUUID() : ''), [opened]);
  const start = useMutation({
    mutationFn: async () => {
      const ids = await matchingIds(workspaceId, query);
      if (ids.length === 0) throw new Error('none');
      const path = { workspace_id: workspaceId, scenario_id: scenarioId };
      const body = { recording_ids: ids, idempotency_key: key };
      return kind === 'analysis'
        ? ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}/executions', { params: { path }, body }))
        : ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}/executions', { params: { path }, body }));
    },
    onSuccess: (execution) => {
      notifications.show({ color: 'green', message: `Started on ${execution.recording_ids.length} recordings.` });
      onClose();
      navigate(`/w/${workspaceId}/executions`);
    },
  });
  const none = matching.data === 0 || (start.error instanceof Error && start.error.message === 'none');
  const count = matching.data;
  return (
    <Modal opened={opened} onClose={onClose} title="Run on recordings" size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text size="sm">
          Every recording that matches these filters gets a run, up to 10,000 at a time. With Status left at “Any”, that is every {kind === 'analysis' ? 'transcribed call' : 'call whose audio is prepared'} the other filters find.
        </Text>
        <RecordingFiltersBar filters={filters} fields={fields.data?.data ?? []} onChange={setFilters} onTyping={setTyping} />
        {typing && (
          <Text size="sm" c="#9a3412" role="status">
            Add the metadata filter you typed (or clear it) before starting.
          </Text>
        )}
        {none ? (
          <Text c="red.9" role="status">
            No recording matches these filters.
          </Text>
        ) : (
          <Text size="sm" role="status" data-matching={count ?? ''}>
            {count === undefined ? matching.isError ? null : <Loader size="xs" aria-label="Counting the recordings" /> : count > MAX_RECORDINGS ? `${count.toLocaleString()} recordings match; the first ${MAX_RECORDINGS.toLocaleString()} get a run.` : `${count.toLocaleString()} ${count === 1 ? 'recording matches' : 'recordings match'}.`}
          </Text>
        )}
        {corrected > 0 && (
          <Checkbox
            data-corrected={corrected}
            checked={includeCorrected}
            onChange={(event) => setIncludeCorrected(event.currentTarget.checked)}
            label={`Include the ${corrected.toLocaleString()} ${corrected === 1 ? 'call' : 'calls'} whose transcript was corrected by hand`}
            description="Left out unless ticked: a new transcript is made from the audio without the corrections (the corrected one stays with its earlier run)."
          />
        )}
        {!none && <ProblemAlert error={start.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => start.mutate()} loading={start.isPending} disabled={none || typing}>
            {count ? `Start on ${Math.min(count, MAX_RECORDINGS).toLocaleString()}` : 'Start'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
