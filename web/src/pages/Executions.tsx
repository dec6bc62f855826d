// Executions: scenarios run over many recordings, with live counts per state.
import { Anchor, Badge, Group, Loader, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { queries } from '../api/queries.ts';
import { ProblemAlert } from '../components/Problem.tsx';
import { StatusBadge } from '../components/Status.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { usePageTitle } from '../components/PageTitle.ts';
import { useMediaQuery } from '@mantine/hooks';
import '../styles/phone-cards.css';

export default function Executions() {
  const workspace = useWorkspace();
  usePageTitle('Executions', workspace.name);
  const phone = useMediaQuery('(max-width: 36em)');
  const executions = useQuery({
    ...queries.executions(workspace.id),
    select: (page) => page.data,
    refetchInterval: (q) => (q.state.data?.data.some((e) => e.status === 'queued' || e.status === 'running') ? 2000 : false),
  });

  return (
    <Stack>
      <Title order={1}>Executions</Title>
      <ProblemAlert error={executions.error} />
      {executions.isPending && <Loader size="sm" aria-label="Loading the executions" />}
      {executions.data?.length === 0 && <Text c="dimmed">No executions yet. Open a scenario and choose “Run on recordings…”.</Text>}
      {executions.data && executions.data.length > 0 && (
        // On a phone each execution is a block of its own (phone-cards.css).
        <Table.ScrollContainer minWidth={phone ? 0 : 640}>
          <Table aria-label="Executions" className="hark-phone-cards">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Scenario</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Progress</Table.Th>
                <Table.Th>Started</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {executions.data.map((e) => {
                const total = e.recording_ids.length || 1;
                const done = e.counts.completed + e.counts.failed + e.counts.cancelled;
                const answersHref = `/w/${workspace.id}/scenarios/analysis/${e.scenario_id}/answers?execution_id=${e.id}`;
                return (
                  <Table.Tr key={e.id} data-execution={e.id}>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        {e.scenario_name === null || e.scenario_name === undefined ? (
                          <Text size="sm">Deleted scenario</Text>
                        ) : (
                          // An analysis opens on the answers it gave; a transcription on its scenario.
                          <Anchor component={Link} to={e.kind === 'analysis' ? answersHref : `/w/${workspace.id}/scenarios/transcription/${e.scenario_id}`} size="sm">
                            {e.scenario_name}
                          </Anchor>
                        )}
                        {/* Never cut ("TRANSCRI…" on a phone): the name wraps instead. */}
                        <Badge size="xs" variant="light" styles={{ root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                          {e.kind}
                        </Badge>
                      </Group>
                    </Table.Td>
                    <Table.Td data-label="Status">
                      <StatusBadge status={e.status} />
                    </Table.Td>
                    <Table.Td miw={phone ? undefined : 220} data-label="Progress">
                      <Progress.Root size="lg" w="100%" title={`${done} of ${e.recording_ids.length} done`}>
                        <Progress.Section value={(e.counts.completed / total) * 100} color="green" aria-label={`${e.counts.completed} of ${e.recording_ids.length} completed`} />
                        <Progress.Section value={(e.counts.failed / total) * 100} color="red" aria-label={`${e.counts.failed} of ${e.recording_ids.length} failed`} />
                        <Progress.Section value={(e.counts.running / total) * 100} color="blue" aria-label={`${e.counts.running} of ${e.recording_ids.length} running`} />
                      </Progress.Root>
                      <Group gap="xs" mt={4}>
                        <Text size="xs">{e.counts.completed} done</Text>
                        <Text size="xs">{e.counts.running} running</Text>
                        <Text size="xs">{e.counts.queued} queued</Text>
                        {e.counts.failed > 0 && (
                          <Text size="xs" c="red">
                            {e.counts.failed} failed
                          </Text>
                        )}
                        {e.counts.deleted > 0 && <Text size="xs">{e.counts.deleted} deleted</Text>}
                        {/* Where an analysis's answers are read: said, not only behind the scenario's name. */}
                        {e.kind === 'analysis' && e.counts.completed > 0 && e.scenario_name !== null && e.scenario_name !== undefined && (
                          <Anchor component={Link} to={answersHref} size="xs" data-see-answers>
                            See its answers →
                          </Anchor>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td data-label="Started">
                      <Text size="xs">{formatDateTime(e.created_at)}</Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
