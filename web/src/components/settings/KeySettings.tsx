// API keys: create with scopes and an expiry (the secret is shown once), list with who made each, revoke.
import '@mantine/dates/styles.css';
import { Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { api, ok } from '../../api/client.ts';
import { keys as queryKeys, queries } from '../../api/queries.ts';
import { ProblemAlert } from '../Problem.tsx';
import { SecretOnce } from './SecretOnce.tsx';
import { ConfirmButton } from '../ConfirmButton.tsx';
import { CheckboxGrid, CreateForm } from './CreateForm.tsx';
import { formatDate } from '../../lib/dates.ts';

const allScopes = ['recordings:read', 'recordings:write', 'transcripts:read', 'transcripts:write', 'analysis:read', 'analysis:write', 'scenarios:write', 'reports:read', 'webhooks:manage', 'keys:manage'] as const;
type Scope = (typeof allScopes)[number];

export function KeySettings({ workspaceId }: { workspaceId: string }) {
  const path = { workspace_id: workspaceId };
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['recordings:read', 'transcripts:read', 'analysis:read']);
  const [expires, setExpires] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const keys = useQuery(queries.apiKeys(workspaceId));
  const members = useQuery(queries.members(workspaceId));
  // A key answers to the person who made it: it grants no more than their role, nothing once they have left.
  const madeBy = (account: string | null) => (account === null ? 'the operator (or made before keys named their maker)' : (members.data?.data.find((m) => m.account_id === account)?.email ?? (members.isSuccess ? 'someone who has left (the key no longer works)' : '…')));
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.keys(workspaceId) });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/api-keys', { params: { path }, body: { name, scopes, ...(expires ? { expires_at: dayjs(expires).endOf('day').toISOString() } : {}) } })),
    onSuccess: async (created) => {
      setSecret(created.key);
      setName('');
      await refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/api-keys/{key_id}', { params: { path: { ...path, key_id: id } } })), onSuccess: refresh });

  return (
    <Stack>
      <Title order={2} fz="h3">
        API keys
      </Title>
      {secret && <SecretOnce title="Your new API key" secret={secret} onDone={() => setSecret(null)} />}
      <CreateForm onSubmit={() => create.mutate()} error={create.error} failed="No key made" submit="Create key" disabled={scopes.length === 0} pending={create.isPending}>
        <Group align="end">
          <TextInput label="Key name" required value={name} onChange={(e) => setName(e.currentTarget.value)} w={240} />
          <DateInput label="Expires" placeholder="Never" value={expires} onChange={setExpires} minDate={dayjs().add(1, 'day').format('YYYY-MM-DD')} clearable w={180} />
        </Group>
        <CheckboxGrid label="Scopes" options={allScopes} value={scopes} onChange={setScopes} />
      </CreateForm>
      <ProblemAlert error={keys.error ?? revoke.error} />
      <Text size="sm" c="dimmed">
        A key grants its scopes only as far as the role of the person who made it allows, and stops working when they leave the workspace.
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="API keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Key</Table.Th>
              <Table.Th>Scopes</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Made by</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.data?.data.map((key) => (
              <Table.Tr key={key.id} data-key={key.name}>
                {/* Revoke under the name: in the first column it stays on a phone's screen (at the row's end it was off to the side). */}
                <Table.Td>
                  <Stack gap={4} align="flex-start">
                    <Text size="sm">{key.name}</Text>
                    <ConfirmButton size="xs" title={`Revoke the key “${key.name}”?`} consequence="Every program using it is refused from now on. This cannot be undone: a new key has a new secret." confirm="Revoke" onConfirm={() => revoke.mutate(key.id)} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </ConfirmButton>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Text ff="monospace" size="sm">
                    {key.prefix}…
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{key.scopes.join(', ')}</Text>
                </Table.Td>
                <Table.Td>{key.expires_at ? formatDate(key.expires_at) : 'never'}</Table.Td>
                <Table.Td>
                  <Text size="xs">{madeBy(key.created_by)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
