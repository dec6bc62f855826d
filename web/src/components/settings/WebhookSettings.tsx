// Webhooks: create with event filters (the signing secret shown once), rotate the secret, the
// deliveries log with status codes, redeliver, a test event, delete.
import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../../api/client.ts';
import { keys, queries } from '../../api/queries.ts';
import { ProblemAlert } from '../Problem.tsx';
import { SecretOnce } from './SecretOnce.tsx';
import { ConfirmButton } from '../ConfirmButton.tsx';
import { CheckboxGrid, CreateForm } from './CreateForm.tsx';
import { formatDateTime } from '../../lib/dates.ts';

const events = ['recording.completed', 'recording.failed', 'recording.download_failed', 'recording.updated', 'transcription_run.completed', 'transcription_run.failed', 'transcript.corrected', 'recording.categorized', 'analysis_run.completed', 'analysis_run.failed', 'analysis_answer.reviewed', 'execution.completed'] as const;
type EventName = (typeof events)[number] | '*';

function Deliveries({ workspaceId, webhookId }: { workspaceId: string; webhookId: string }) {
  const path = { workspace_id: workspaceId, webhook_id: webhookId };
  const client = useQueryClient();
  const deliveries = useQuery({ ...queries.deliveries(workspaceId, webhookId), refetchInterval: (query) => (query.state.data?.data.length === 0 ? 1000 : 5000) });
  const redeliver = useMutation({
    mutationFn: (id: string) => ok(api.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', { params: { path: { ...path, delivery_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.deliveries(workspaceId, webhookId) }),
  });
  // A test event is delivered a moment after it is sent: the log looks again each second meanwhile.
  if (deliveries.data?.data.length === 0) return <Text size="sm" c="dimmed">No deliveries yet (the log refreshes by itself).</Text>;
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Attempt</Table.Th>
            <Table.Th>Answer</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data?.data.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{d.event_type}</Table.Td>
              <Table.Td>{d.attempt}</Table.Td>
              <Table.Td>
                <Badge color={d.success ? 'green' : 'red'} variant="light">
                  {d.status_code ?? d.error ?? 'no answer'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="xs">{formatDateTime(d.created_at)}</Text>
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" onClick={() => redeliver.mutate(d.id)}>
                  Redeliver
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * How the test event just sent fared, said where it was asked for: waiting until its first
 * delivery attempt is logged, then delivered (the endpoint's status) or failed (with the reason).
 */
function TestOutcome({ workspaceId, webhookId, eventId }: { workspaceId: string; webhookId: string; eventId: string }) {
  const deliveries = useQuery({ ...queries.deliveries(workspaceId, webhookId), refetchInterval: (query) => (query.state.data?.data.some((d) => d.event_id === eventId) ? false : 1000) });
  const attempt = deliveries.data?.data.find((d) => d.event_id === eventId);
  if (!attempt) {
    return (
      <Text size="sm" c="dimmed" role="status" data-test-outcome="waiting">
        Test event sent; waiting for the endpoint's answer…
      </Text>
    );
  }
  return attempt.success ? (
    <Text size="sm" c="green.9" role="status" data-test-outcome="delivered">
      Test event delivered: the endpoint answered {attempt.status_code}.
    </Text>
  ) : (
    <Text size="sm" c="red.9" role="status" data-test-outcome="failed">
      Test event not delivered: {attempt.status_code !== null ? `the endpoint answered ${attempt.status_code}` : (attempt.error ?? 'no answer')}.
    </Text>
  );
}

export function WebhookSettings({ workspaceId }: { workspaceId: string }) {
  const path = { workspace_id: workspaceId };
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [chosen, setChosen] = useState<EventName[]>(['*']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  /** The test event last sent, per webhook. */
  const [tested, setTested] = useState<Record<string, string>>({});
  const hooks = useQuery(queries.webhooks(workspaceId));
  const refresh = () => client.invalidateQueries({ queryKey: keys.webhooks(workspaceId) });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/webhooks', { params: { path }, body: { url, events: chosen } })),
    onSuccess: async (hook) => {
      setSecret(hook.secret);
      setUrl('');
      await refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: (id: string) => ok(api.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/rotate-secret', { params: { path: { ...path, webhook_id: id } } })),
    onSuccess: (answer) => setSecret((answer as { secret: string }).secret),
  });
  const remove = useMutation({ mutationFn: (id: string) => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}', { params: { path: { ...path, webhook_id: id } } })), onSuccess: refresh });
  const sendTest = useMutation({
    mutationFn: (id: string) => ok(api.POST('/api/v1/workspaces/{workspace_id}/webhooks/{webhook_id}/test', { params: { path: { ...path, webhook_id: id } } })),
    onSuccess: (answer, id) => {
      setTested((before) => ({ ...before, [id]: answer.event_id }));
      setOpen(id);
      void client.invalidateQueries({ queryKey: keys.deliveries(workspaceId, id) });
    },
  });

  return (
    <Stack>
      <Title order={2} fz="h3">
        Webhooks
      </Title>
      {secret && <SecretOnce title="Signing secret" secret={secret} onDone={() => setSecret(null)} />}
      <CreateForm onSubmit={() => create.mutate()} error={create.error} failed="No webhook made" submit="Add webhook" disabled={chosen.length === 0} pending={create.isPending}>
        <TextInput label="Endpoint URL" description="Hark POSTs signed JSON events here (Standard Webhooks)" type="url" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} maw={520} />
        <CheckboxGrid<EventName> label="Events" options={events} value={chosen} onChange={setChosen} all={{ value: '*', label: 'All events' }} />
      </CreateForm>
      <ProblemAlert error={hooks.error ?? rotate.error ?? remove.error ?? sendTest.error} />
      {hooks.data?.data.map((hook) => (
        <Paper key={hook.id} withBorder p="sm" radius="md" data-webhook={hook.url}>
          <Stack gap="xs">
            <Group justify="space-between">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={500} truncate>
                  {hook.url}
                </Text>
                <Text size="xs" c="dimmed">
                  {hook.events.includes('*') ? 'All events' : `Events: ${hook.events.join(', ')}`} {hook.enabled ? '' : `· disabled${hook.disabled_reason ? `: ${hook.disabled_reason}` : ''}`}
                </Text>
              </Stack>
              <Group gap={4}>
                <Button size="xs" variant="subtle" onClick={() => setOpen(open === hook.id ? null : hook.id)} aria-expanded={open === hook.id}>
                  {open === hook.id ? 'Hide deliveries' : 'Deliveries'}
                </Button>
                <Button size="xs" variant="subtle" onClick={() => sendTest.mutate(hook.id)}>
                  Send test event
                </Button>
                <Button size="xs" variant="subtle" onClick={() => rotate.mutate(hook.id)}>
                  Rotate secret
                </Button>
                <ConfirmButton size="xs" title="Delete this webhook?" consequence={`No more events are sent to ${hook.url}, and its delivery history is deleted.`} confirm="Delete" onConfirm={() => remove.mutate(hook.id)} aria-label={`Delete the webhook to ${hook.url}`}>
                  Delete
                </ConfirmButton>
              </Group>
            </Group>
            {tested[hook.id] && <TestOutcome key={tested[hook.id]} workspaceId={workspaceId} webhookId={hook.id} eventId={tested[hook.id]!} />}
            {open === hook.id && <Deliveries workspaceId={workspaceId} webhookId={hook.id} />}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
