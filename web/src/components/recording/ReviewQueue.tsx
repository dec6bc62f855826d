// A call opened from the answers across calls: where it stands in that table (as filtered: "the
// calls whose agent did not greet"), a way back to it, to the call before and on to the next, so a reviewer
// goes through them one after another. The table is read again after a review: a call that no
// longer matches (an uncertain answer reviewed) leaves it, and the count says how many are left.
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { queries } from '../../api/queries.ts';
import { answerTableQuery, firstEvidence, placeInQueue, queuedCallHref } from '../../lib/answer-query.ts';

/** `compact`: the way on alone, for the end of the answers, where a reviewer finishes with a call. */
export function ReviewQueue({ workspaceId, recordingId, recordedAt, compact = false }: { workspaceId: string; recordingId: string; recordedAt: string; compact?: boolean }) {
  const [search] = useSearchParams();
  const scenarioId = search.get('queue');
  const from = new URLSearchParams(search.get('from') ?? '');
  const table = useQuery({ ...queries.answers(workspaceId, scenarioId ?? '', answerTableQuery(from)), enabled: scenarioId !== null });
  if (scenarioId === null) return null;
  const back = (
    <Anchor component={Link} to={`/w/${workspaceId}/scenarios/analysis/${scenarioId}/answers${from.size > 0 ? `?${from.toString()}` : ''}`} size="sm">
      ← Back to the answers
    </Anchor>
  );
  if (table.isError) {
    return compact ? null : (
      <Paper withBorder p="xs" radius="md" data-review-queue>
        <Group gap="xs">
          {back}
          <Text size="sm" c="dimmed" data-queue-position>
            The answers you came from cannot be read now (a filter, question or scenario gone since?): go back to them.
          </Text>
        </Group>
      </Paper>
    );
  }
  if (!table.data) return null;
  const rows = table.data.rows;
  const { here, rest, before } = placeInQueue(rows, recordingId, recordedAt);
  const next = rest[0];
  // Back one call, to look again at one just reviewed (a slip of the finger): the call the reviewer
  // came from, which its review may have taken out of the table, else the one before in it.
  const cameFrom = search.get('prev');
  const previousId = cameFrom && cameFrom !== recordingId ? cameFrom : before?.recording_id;
  const previousRow = rows.find((row) => row.recording_id === previousId);
  const previous = previousId ? (
    <Anchor component={Link} to={queuedCallHref(workspaceId, previousId, scenarioId, from, previousRow ? firstEvidence(previousRow, from) : null)} size="sm">
      ← Previous call
    </Anchor>
  ) : null;
  const where =
    here !== -1
      ? `Call ${here + 1} of ${rows.length} in the answers you came from`
      : rest.length > 0
        ? `This call has left the answers you came from; ${rest.length} ${rest.length === 1 ? 'call comes' : 'calls come'} after it`
        : 'This call has left the answers you came from; none comes after it';
  const onward = next ? (
    <Anchor component={Link} to={queuedCallHref(workspaceId, next.recording_id, scenarioId, from, firstEvidence(next, from), recordingId)} size="sm" fw={600}>
      Next call →
    </Anchor>
  ) : (
    <Text size="sm" c="dimmed">
      {here !== -1 ? 'The last one' : 'Done'}
    </Text>
  );
  if (compact) return <Group justify="flex-end" data-review-queue-end>{onward}</Group>;
  return (
    <Paper withBorder p="xs" radius="md" data-review-queue>
      <Group justify="space-between" gap="xs">
        {back}
        <Text size="sm" data-queue-position aria-live="polite">
          {where}
        </Text>
        <Group gap="md">
          {previous}
          {onward}
        </Group>
      </Group>
    </Paper>
  );
}
