// Import a recording from a public URL: Hark downloads it (with retries) and prepares it.
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client.ts';
import { keys } from '../api/queries.ts';
import { splitCallTime } from '../lib/per-file-metadata.ts';
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
  // A recorded_at field is when the call took place, as on an upload, not metadata.
  const callTime = splitCallTime(metadata ?? {});
  const start = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v1/workspaces/{workspace_id}/recordings/import', {
          params: { path: { workspace_id: workspaceId } },
          body: { url, metadata: callTime.metadata, ...(callTime.recordedAt ? { recorded_at: callTime.recordedAt } : {}), ...(retention !== '' ? { retention_days: Number(retention) } : {}) },
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
          {callTime.problem && (
            <Text size="sm" c="red.9" role="status">
              {callTime.problem}
            </Text>
          )}
          <RetentionDaysInput value={retention} onChange={setRetention} />
          <Group>
            <Button type="submit" loading={start.isPending} disabled={metadata === null || callTime.problem !== null || retentionError(retention, retentionRange) !== null}>
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
