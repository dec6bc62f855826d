// A call's metadata edited after its upload (an agent's name mistyped, a field missing): replaced
// whole, as the API takes it; reports group the call by the new values at once.
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client.ts';
import { MetadataEditor } from '../MetadataEditor.tsx';
import { RecordingEditDialog, useRecordingEdit } from './RecordingEditDialog.tsx';

export function MetadataEdit({ workspaceId, recording: r }: { workspaceId: string; recording: Schemas['Recording'] }) {
  const edit = useRecordingEdit(workspaceId, r);
  const [metadata, setMetadata] = useState<Record<string, unknown> | null>(r.metadata);
  const openEditor = () => {
    setMetadata(r.metadata);
    edit.start();
  };

  return (
    <>
      <Button size="compact-sm" variant="subtle" onClick={openEditor}>
        {Object.keys(r.metadata).length > 0 ? 'Edit metadata' : 'Add metadata'}
      </Button>
      <RecordingEditDialog edit={edit} title="The call's metadata" size="lg" onSave={() => metadata && edit.save.mutate({ metadata })} canSave={metadata !== null}>
        {/* Mounted with the dialog: it starts from the values the call has now. */}
        {edit.opened && <MetadataEditor initial={r.metadata} onChange={setMetadata} />}
        <Text size="xs" c="dimmed">
          Saved whole: a field removed here is removed from the call. Reports and filters use the new values at once.
        </Text>
      </RecordingEditDialog>
    </>
  );
}
