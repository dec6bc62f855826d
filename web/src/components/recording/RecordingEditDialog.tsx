// What a recording's edits share (its metadata, how long its audio is kept): a dialog that saves
// one PATCH of the recording, puts the answer in the page's cache and closes, or says the refusal.
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, ok, type Schemas } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import type { paths } from '../../../../clients/typescript/src/schema.d.ts';
import { ProblemAlert } from '../Problem.tsx';

/** The body of a recording's PATCH (metadata, recorded_at, retention_days). */
type RecordingEdit = paths['/api/v1/workspaces/{workspace_id}/recordings/{recording_id}']['patch']['requestBody']['content']['application/json'];

/** The dialog's state and its save: `start` opens it afresh (the caller resets its fields first). */
export function useRecordingEdit(workspaceId: string, recording: Schemas['Recording']) {
  const client = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const save = useMutation({
    mutationFn: (body: RecordingEdit) => ok(api.PATCH('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path: { workspace_id: workspaceId, recording_id: recording.id } }, body })),
    onSuccess: async (saved) => {
      client.setQueryData(keys.recording(workspaceId, recording.id), saved);
      await client.invalidateQueries({ queryKey: keys.recordings(workspaceId) });
      close();
    },
  });
  const start = () => {
    save.reset();
    open();
  };
  return { opened, close, start, save };
}

export function RecordingEditDialog({ edit, title, size, onSave, canSave, children }: { edit: ReturnType<typeof useRecordingEdit>; title: string; size?: string; onSave: () => void; canSave: boolean; children: ReactNode }) {
  return (
    <Modal opened={edit.opened} onClose={edit.close} title={title} size={size} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        {children}
        <ProblemAlert error={edit.save.error} title="Not saved" />
        <Group justify="flex-end">
          <Button variant="default" onClick={edit.close}>
            Cancel
          </Button>
          <Button onClick={onSave} loading={edit.save.isPending} disabled={!canSave}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
