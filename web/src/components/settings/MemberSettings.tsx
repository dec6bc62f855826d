// People in the workspace: add an existing account by e-mail with a role, or invite an address by a
// link that creates the account; change roles, remove.
import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError, ok } from '../../api/client.ts';
import { keys, queries } from '../../api/queries.ts';
import { can, type WorkspaceInfo } from '../../session.tsx';
import { ProblemAlert } from '../Problem.tsx';
import { SecretOnce } from './SecretOnce.tsx';
import { ConfirmButton } from '../ConfirmButton.tsx';
import { formatDate } from '../../lib/dates.ts';

type Role = 'owner' | 'member' | 'viewer';
const roles = [
  { value: 'owner', label: 'Owner: everything' },
  { value: 'member', label: 'Member: all but keys, webhooks, people' },
  { value: 'viewer', label: 'Viewer: reads only' },
];

export function MemberSettings({ workspace }: { workspace: WorkspaceInfo }) {
  const path = { workspace_id: workspace.id };
  const client = useQueryClient();
  const owner = can.manage(workspace.role);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const members = useQuery(queries.members(workspace.id));
  // The last owner can be neither removed nor demoted (the server refuses both): no control offers it.
  const owners = members.data?.data.filter((m) => m.role === 'owner').length ?? 0;
  const lastOwner = (m: { role: string }) => m.role === 'owner' && owners === 1;
  const refresh = () => client.invalidateQueries({ queryKey: keys.members(workspace.id) });
  const add = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/members', { params: { path }, body: { email, role } })),
    onSuccess: async () => {
      setEmail('');
      await refresh();
    },
  });
  const change = useMutation({ mutationFn: ({ id, next }: { id: string; next: Role }) => ok(api.PATCH('/api/v1/workspaces/{workspace_id}/members/{account_id}', { params: { path: { ...path, account_id: id } }, body: { role: next } })), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: string) => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/members/{account_id}', { params: { path: { ...path, account_id: id } } })), onSuccess: refresh });
  const [link, setLink] = useState<string | null>(null);
  const invitations = useQuery({ ...queries.invitations(workspace.id), enabled: owner });
  const invite = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/invitations', { params: { path }, body: { email, role } })),
    onSuccess: async (created) => {
      setLink(created.url);
      setEmail('');
      await client.invalidateQueries({ queryKey: keys.invitations(workspace.id) });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}', { params: { path: { ...path, invitation_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.invitations(workspace.id) }),
  });

  // The refusal of the last thing asked, and only that: an invitation sent after a refused add
  // must not leave the add's refusal on screen.
  const lastAction = [add, change, remove, invite, revoke].reduce((last, next) => (next.submittedAt > last.submittedAt ? next : last));

  const noAccount = lastAction === add && add.error instanceof ApiError && add.error.status === 404;
  return (
    <Stack>
      <Title order={2} fz="h3">
        People
      </Title>
      {owner && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="end">
            <TextInput label="Add a person by e-mail" description="They need a Hark account on this server" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} w={280} />
            <Select label="Role" data={roles} value={role} onChange={(v) => setRole((v ?? 'member') as Role)} allowDeselect={false} w={380} maw="100%" />
            <Button type="submit" loading={add.isPending}>
              Add
            </Button>
            <Button variant="default" onClick={() => email && invite.mutate()} loading={invite.isPending} disabled={!email}>
              Invite by link
            </Button>
          </Group>
        </form>
      )}
      {link && <SecretOnce title="Invitation link: send it to them (it works once, for 7 days)" secret={link} onDone={() => setLink(null)} />}
      {owner && invitations.data && invitations.data.data.length > 0 && (
        <Stack gap={4} aria-label="Open invitations">
          <Text size="sm" fw={500}>
            Open invitations
          </Text>
          {invitations.data.data.map((i) => (
            <Group key={i.id} gap="xs">
              <Text size="sm">
                {i.email} as {i.role}, until {formatDate(i.expires_at)}
              </Text>
              <ConfirmButton size="xs" title={`Revoke the invitation of ${i.email}?`} consequence="The link stops working; you can invite the address again." confirm="Revoke" onConfirm={() => revoke.mutate(i.id)} aria-label={`Revoke the invitation of ${i.email}`}>
                Revoke
              </ConfirmButton>
            </Group>
          ))}
        </Stack>
      )}
      {/* Someone without an account here is invited, not added: the way on is said in place of the refusal. */}
      {!noAccount && <ProblemAlert error={lastAction.error ?? members.error} />}
      {noAccount && (
        <Text size="sm" data-invite-instead>
          No account uses {email || 'that address'} on this server yet: “Invite by link” makes a link with which they create one and join.
        </Text>
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label="People">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>E-mail</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.data?.data.map((m) => (
              <Table.Tr key={m.account_id}>
                <Table.Td>{m.email}</Table.Td>
                <Table.Td>
                  {owner && !lastOwner(m) ? (
                    <Select aria-label={`Role of ${m.email}`} data={roles.map((r) => ({ value: r.value, label: r.value }))} value={m.role} onChange={(v) => v && change.mutate({ id: m.account_id, next: v as Role })} allowDeselect={false} w={130} />
                  ) : (
                    <Text size="sm" title={lastOwner(m) ? 'The only owner: make someone else an owner first' : undefined}>
                      {m.role}
                      {owner && lastOwner(m) ? ' (the only one)' : ''}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {owner && !lastOwner(m) && (
                    <ConfirmButton size="xs" title={`Remove ${m.email}?`} consequence="They lose access to this workspace at once, and the API keys they made here are deleted; their account and the recordings, scenarios and answers they made here stay." confirm="Remove" onConfirm={() => remove.mutate(m.account_id)} aria-label={`Remove ${m.email}`}>
                      Remove
                    </ConfirmButton>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
