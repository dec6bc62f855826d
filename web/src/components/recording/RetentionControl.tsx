// "Audio kept until …" with, for a writer, a way to keep it longer (or less long): days counted
// from the upload, the date they come to shown before saving, a refusal said in the dialog.
import { Anchor, NumberInput, Text } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client.ts';
import { formatDate } from '../../lib/dates.ts';
import { retentionError } from '../RetentionDaysInput.tsx';
import { useWorkspace } from '../WorkspaceLayout.tsx';
import { RecordingEditDialog, useRecordingEdit } from './RecordingEditDialog.tsx';

const DAY_MS = 86_400_000;

export function RetentionControl({ workspaceId, recording: r, writer }: { workspaceId: string; recording: Schemas['Recording']; writer: boolean }) {
  const edit = useRecordingEdit(workspaceId, r);
  const [days, setDays] = useState<number | string>(r.retention_days);
  const range = useWorkspace().retention;
  const problem = days === '' ? 'A number of days' : retentionError(days, range);
  const whole = problem === null && typeof days === 'number';
  const until = whole ? new Date(Date.parse(r.created_at) + days * DAY_MS) : null;
  const openDialog = () => {
    setDays(r.retention_days);
    edit.start();
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
      <RecordingEditDialog edit={edit} title="How long to keep the audio" onSave={() => edit.save.mutate({ retention_days: Number(days) })} canSave={whole}>
        <NumberInput label="Days, counted from the upload" min={range.min_days} max={range.max_days} clampBehavior="none" allowDecimal={false} value={days} onChange={setDays} error={problem} data-autofocus />
        <Text size="sm" c="dimmed" data-retention-until>
          {until ? (until.getTime() <= Date.now() ? `That date (${formatDate(until.toISOString())}) has passed: the audio is deleted at the next sweep.` : `The audio is kept until ${formatDate(until.toISOString())}; transcripts and answers stay after it.`) : `From ${range.min_days} to ${range.max_days} days.`}
        </Text>
      </RecordingEditDialog>
    </>
  );
}
