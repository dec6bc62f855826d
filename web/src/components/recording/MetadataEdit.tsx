// A call's metadata edited after its upload (an agent's name mistyped, a field missing): replaced
// whole, as the API takes it; reports group the call by the new values at once.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import { MetadataEditor } from '../MetadataEditor.tsx';
import { ProblemAlert } from '../Problem.tsx';

export function MetadataEdit({ workspaceId, recording: r }: { workspaceId: string; recording: Schemas['Recording'] }) {
  const client = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [metadata, setMetadata] = useState<Record<string, unknown> | null>(r.metadata);
  const save = useMutation({
    mutationFn: (value: Record<string, unknown>) => ok(api.PATCH('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path: { workspace_id: workspaceId, recording_id: r.id } }, body: { metadata: value } })),
    onSuccess: async (saved) => {
      client.setQueryData(keys.recording(workspaceId, r.id), saved);
      await client.invalidateQueries({ queryKey: keys.recordings(workspaceId) });
      close();
    },
  });
  const openEditor = () => {
    setMetadata(r.metadata);
    save.reset();
    open();
  };

  return (
    <>
      <Button size="compact-sm" variant="subtle" onClick={openEditor}>
        {Object.keys(r.metadata).length > 0 ? 'Edit metadata' : 'Add metadata'}
      </Button>
      <Modal opened={opened} onClose={close} title="The call's metadata" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          {/* Mounted with the dialog: it starts from the values the call has now. */}
          {opened && <MetadataEditor initial={r.metadata} onChange={setMetadata} />}
          <Text size="xs" c="dimmed">
            Saved whole: a field removed here is removed from the call. Reports and filters use the new values at once.
          </Text>
          <ProblemAlert error={save.error} title="Not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => metadata && save.mutate(metadata)} loading={save.isPending} disabled={metadata === null}>
              Save
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
