// A call's metadata edited after its upload (an agent's name mistyped, a field missing): replaced
// whole, as the API takes it; reports group the call by the new values at once. A `recorded_at`
// field is when the call took place, as at upload: it moves the call to its day in the reports
// instead of being kept as metadata beside a call time that says otherwise.
import { Alert, Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client.ts';
import { splitCallTime } from '../../lib/per-file-metadata.ts';
import { MetadataEditor } from '../MetadataEditor.tsx';
import { RecordingEditDialog, useRecordingEdit } from './RecordingEditDialog.tsx';

export function MetadataEdit({ workspaceId, recording: r }: { workspaceId: string; recording: Schemas['Recording'] }) {
  const edit = useRecordingEdit(workspaceId, r);
  const [metadata, setMetadata] = useState<Record<string, unknown> | null>(r.metadata);
  // A recorded_at field is the call's time, sent apart (as at upload).
  const split = metadata === null ? null : splitCallTime(metadata);
  const openEditor = () => {
    setMetadata(r.metadata);
    edit.start();
  };

  return (
    <>
      <Button size="compact-sm" variant="subtle" onClick={openEditor}>
        {Object.keys(r.metadata).length > 0 ? 'Edit metadata' : 'Add metadata'}
      </Button>
      <RecordingEditDialog edit={edit} title="The call's metadata" size="lg" onSave={() => split && edit.save.mutate({ metadata: split.metadata, ...(split.recordedAt ? { recorded_at: split.recordedAt } : {}) })} canSave={split !== null && split.problem === null}>
        {/* Mounted with the dialog: it starts from the values the call has now. */}
        {edit.opened && <MetadataEditor initial={r.metadata} onChange={setMetadata} />}
        {split?.problem && (
          <Alert color="red" p="xs" data-call-time-problem>
            {split.problem}
          </Alert>
        )}
        <Text size="xs" c="dimmed">
          Saved whole: a field removed here is removed from the call. Reports and filters use the new values at once. A recorded_at field (2026-11-20, or 2026-11-20T09:30) changes when the call took place.
        </Text>
      </RecordingEditDialog>
    </>
  );
}
