// The workspace's name and default retention; a new workspace for the signed-in account.
import { Button, Group, NumberInput, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ok } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import { can, type WorkspaceInfo } from '../../session.tsx';
import { ProblemAlert } from '../Problem.tsx';
import { retentionError } from '../RetentionDaysInput.tsx';

export function WorkspaceSettings({ workspace }: { workspace: WorkspaceInfo }) {
  const [name, setName] = useState(workspace.name);
  const [retention, setRetention] = useState<number | string>(workspace.default_retention_days ?? '');
  const [newName, setNewName] = useState('');
  const client = useQueryClient();
  const navigate = useNavigate();
  const owner = can.manage(workspace.role);
  // Said before saving, never corrected quietly: 0 must not become the shortest retention; the
  // range is the server's (an operator sets it), as the workspace card gives it.
  const retentionProblem = retentionError(retention, workspace.retention);
  const save = useMutation({
    mutationFn: () => ok(api.PATCH('/api/v1/workspaces/{workspace_id}', { params: { path: { workspace_id: workspace.id } }, body: { name, default_retention_days: retention === '' ? null : Number(retention) } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.session });
      notifications.show({ color: 'green', message: 'Saved.' });
    },
  });
  const create = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces', { body: { name: newName } })),
    onSuccess: async (created) => {
      await client.invalidateQueries({ queryKey: keys.session });
      navigate(`/w/${created.id}/recordings`);
    },
  });
  return (
    <Stack>
      <Title order={2} fz="h3">
        Workspace
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!retentionProblem) save.mutate();
        }}
      >
        <Stack maw={480}>
          <ProblemAlert error={save.error} title="Not saved" />
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} disabled={!owner} />
          <NumberInput
            label="Keep new recordings' audio for (days)"
            description={`Leave empty for the server's default: ${workspace.retention.server_default_days} days`}
            min={workspace.retention.min_days}
            max={workspace.retention.max_days}
            clampBehavior="none"
            allowDecimal={false}
            value={retention}
            onChange={setRetention}
            error={retentionProblem}
            disabled={!owner}
          />
          {owner && (
            <Button type="submit" w="fit-content" loading={save.isPending}>
              Save
            </Button>
          )}
        </Stack>
      </form>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Group align="end">
          <TextInput label="Create another workspace" placeholder="Its name" value={newName} onChange={(e) => setNewName(e.currentTarget.value)} />
          <Button type="submit" variant="default" loading={create.isPending} disabled={newName.trim() === ''}>
            Create
          </Button>
        </Group>
        <ProblemAlert error={create.error} />
      </form>
    </Stack>
  );
}
