// Import a recording from a public URL: Hark downloads it (with retries) and prepares it.
import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client.ts';
import { keys } from '../api/queries.ts';
import { MetadataEditor } from './MetadataEditor.tsx';
import { ProblemAlert } from './Problem.tsx';
import { RetentionDaysInput, retentionError } from './RetentionDaysInput.tsx';
import { useWorkspace } from './WorkspaceLayout.tsx';

export function ImportPanel({ workspaceId, onClose }: { workspaceId: string; onClose: () => void }) {
  const [url, setUrl] = useState('');
  const [metadata, setMetadata] = useState<Record<string, unknown> | null>({});
  const [retention, setRetention] = useState<number | string>('');
  const retentionRange = useWorkspace().retention;
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v1/workspaces/{workspace_id}/recordings/import', {
          params: { path: { workspace_id: workspaceId } },
          body: { url, metadata: metadata ?? {}, ...(retention !== '' ? { retention_days: Number(retention) } : {}) },
        }),
      ),
    onSuccess: async (recording) => {
      notifications.show({ color: 'green', message: `Importing ${recording.filename}: it appears below as it downloads.` });
      setUrl('');
      await client.invalidateQueries({ queryKey: keys.recordings(workspaceId) });
    },
  });
  return (
    <Paper withBorder p="md" radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          start.mutate();
        }}
      >
        <Stack>
          <ProblemAlert error={start.error} title="Could not import" />
          <TextInput label="Audio URL" description="A public http or https link, reachable without a login" type="url" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} />
          <MetadataEditor onChange={setMetadata} />
          <RetentionDaysInput value={retention} onChange={setRetention} />
          <Group>
            <Button type="submit" loading={start.isPending} disabled={metadata === null || retentionError(retention, retentionRange) !== null}>
              Import
            </Button>
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
