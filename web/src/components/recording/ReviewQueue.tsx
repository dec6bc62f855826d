// A call opened from the answers across calls: where it stands in that table (as filtered: "the
// calls whose agent did not greet"), a way back to it and on to the next call, so a reviewer
// goes through them one after another. The table is read again after a review: a call that no
// longer matches (an uncertain answer reviewed) leaves it, and the count says how many are left.
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { queries } from '../../api/queries.ts';
import { answerTableQuery, firstEvidence, queuedCallHref } from '../../lib/answer-query.ts';

export function ReviewQueue({ workspaceId, recordingId }: { workspaceId: string; recordingId: string }) {
  const [search] = useSearchParams();
  const scenarioId = search.get('queue');
  const from = new URLSearchParams(search.get('from') ?? '');
  const table = useQuery({ ...queries.answers(workspaceId, scenarioId ?? '', answerTableQuery(from)), enabled: scenarioId !== null });
  if (scenarioId === null || !table.data) return null;
  const rows = table.data.rows;
  const here = rows.findIndex((row) => row.recording_id === recordingId);
  const next = here === -1 ? rows[0] : rows[here + 1];
  const where = here === -1 ? `${rows.length} ${rows.length === 1 ? 'call' : 'calls'} left in the answers you came from` : `Call ${here + 1} of ${rows.length} in the answers you came from`;
  return (
    <Paper withBorder p="xs" radius="md" data-review-queue>
      <Group justify="space-between" gap="xs">
        <Anchor component={Link} to={`/w/${workspaceId}/scenarios/analysis/${scenarioId}/answers${from.size > 0 ? `?${from.toString()}` : ''}`} size="sm">
          ← Back to the answers
        </Anchor>
        <Text size="sm" data-queue-position>
          {where}
        </Text>
        {next ? (
          <Anchor component={Link} to={queuedCallHref(workspaceId, next.recording_id, scenarioId, from, firstEvidence(next, from))} size="sm" fw={600}>
            Next call →
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            The last one
          </Text>
        )}
      </Group>
    </Paper>
  );
}
