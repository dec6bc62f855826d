// "Audio kept until …" with, for a writer, a way to keep it longer (or less long): days counted
// from the upload, the date they come to shown before saving, a refusal said in the dialog.
import { Anchor, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import { formatDate } from '../../lib/dates.ts';
import { ProblemAlert } from '../Problem.tsx';
import { retentionError } from '../RetentionDaysInput.tsx';
import { useWorkspace } from '../WorkspaceLayout.tsx';

const DAY_MS = 86_400_000;

export function RetentionControl({ workspaceId, recording: r, writer }: { workspaceId: string; recording: Schemas['Recording']; writer: boolean }) {
  const client = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [days, setDays] = useState<number | string>(r.retention_days);
  const range = useWorkspace().retention;
  const problem = days === '' ? 'A number of days' : retentionError(days, range);
  const save = useMutation({
    mutationFn: () => ok(api.PATCH('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path: { workspace_id: workspaceId, recording_id: r.id } }, body: { retention_days: Number(days) } })),
    onSuccess: async (saved) => {
      client.setQueryData(keys.recording(workspaceId, r.id), saved);
      await client.invalidateQueries({ queryKey: keys.recordings(workspaceId) });
      close();
    },
  });
  const whole = problem === null && typeof days === 'number';
  const until = whole ? new Date(Date.parse(r.created_at) + days * DAY_MS) : null;
  const openDialog = () => {
    setDays(r.retention_days);
    save.reset();
    open();
  };

  return (
    <>
      {` · audio kept until ${formatDate(r.expires_at)}`}
      {writer && (
        <>
          {' '}
          <Anchor component="button" type="button" size="sm" onClick={openDialog} data-change-retention>
            change
          </Anchor>
        </>
      )}
      <Modal opened={opened} onClose={close} title="How long to keep the audio" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <NumberInput label="Days, counted from the upload" min={range.min_days} max={range.max_days} clampBehavior="none" allowDecimal={false} value={days} onChange={setDays} error={problem} data-autofocus />
          <Text size="sm" c="dimmed" data-retention-until>
            {until ? (until.getTime() <= Date.now() ? `That date (${formatDate(until.toISOString())}) has passed: the audio is deleted at the next sweep.` : `The audio is kept until ${formatDate(until.toISOString())}; transcripts and answers stay after it.`) : `From ${range.min_days} to ${range.max_days} days.`}
          </Text>
          <ProblemAlert error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!whole}>
              Save
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
