// A recording's runs of one kind: status, progress, failure, and Cancel / Retry; a completed
// transcription run's transcript as text (a corrected one stays with its run when the call is
// transcribed again: this is where it is found).
import { Anchor, Button, Group, Progress, Stack, Table, Text } from '@mantine/core';
import type { Schemas } from '../api/client.ts';
import { StatusBadge } from './Status.tsx';
import { formatDateTime } from '../lib/dates.ts';

type Run = Schemas['TranscriptionRun'] | Schemas['AnalysisRun'];

export function RunList({
  runs,
  scenarioName,
  onCancel,
  onRetry,
  transcriptFile,
  canWrite,
  label,
}: {
  runs: Run[];
  scenarioName: (run: Run) => string;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  /** Where a completed run's transcript is read as a TXT file, and its file's name (transcription runs). */
  transcriptFile?: (run: Run) => { href: string; name: string };
  canWrite: boolean;
  label: string;
}) {
  if (runs.length === 0) return <Text c="dimmed" size="sm">No {label.toLowerCase()} yet.</Text>;
  return (
    // Three columns (the start under the scenario): the list fits the page's narrow side column.
    <Table.ScrollContainer minWidth={340}>
      <Table aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Scenario</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {runs.map((run) => {
            const file = transcriptFile && run.status === 'completed' ? transcriptFile(run) : null;
            return (
              <Table.Tr key={run.id} data-run={run.id}>
                <Table.Td>
                  <Text size="sm">{scenarioName(run)}</Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {run.engine} · {run.model}
                  </Text>
                  <Text size="xs" c="dimmed">
                    started {formatDateTime(run.created_at)}
                  </Text>
                </Table.Td>
                <Table.Td miw={120}>
                  <Stack gap={4}>
                    <StatusBadge status={run.status} />
                    {run.status === 'running' && <Progress value={run.progress * 100} size="sm" aria-label="Progress" w={100} />}
                    {run.error_code && (
                      <Text size="xs" c="red">
                        {run.error_code}: {run.error_message}
                      </Text>
                    )}
                    {run.last_error && (
                      <Text size="xs" c="#9a3412" data-last-error>
                        Attempt {run.attempts} failed ({run.last_error.code}: {run.last_error.message}); it is tried again by itself.
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end">
                    {file && (
                      <Anchor href={file.href} download={file.name} size="sm" aria-label={`Download the transcript of the run started ${formatDateTime(run.created_at)} (TXT)`}>
                        TXT
                      </Anchor>
                    )}
                    {canWrite && (run.status === 'queued' || run.status === 'running') && (
                      <Button size="xs" variant="default" onClick={() => onCancel(run.id)}>
                        Cancel
                      </Button>
                    )}
                    {canWrite && run.status === 'failed' && (
                      <Button size="xs" variant="light" onClick={() => onRetry(run.id)}>
                        Retry
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
