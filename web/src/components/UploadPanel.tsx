// Upload many files at once by dragging them in (or choosing them), each with its own progress
// bar; the metadata and retention apply to every file of the batch.
import { Button, Group, NumberInput, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { sendForm, workspacePath } from '../api/client.ts';
import { MetadataEditor } from './MetadataEditor.tsx';
import { problemMessage } from './Problem.tsx';

interface Item {
  id: number;
  file: File;
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  message?: string;
}

const accept = ['audio/*', 'video/mp4', 'video/webm', 'application/ogg', '.m4a', '.flac', '.opus'];
let nextId = 0;

export function UploadPanel({ workspaceId, suggestions, onClose }: { workspaceId: string; suggestions: string[]; onClose: () => void }) {
  const [items, setItems] = useState<Item[]>([]);
  const [metadata, setMetadata] = useState<Record<string, unknown> | null>({});
  const [retention, setRetention] = useState<number | string>('');
  const [busy, setBusy] = useState(false);
  const client = useQueryClient();

  const update = (id: number, change: Partial<Item>) => setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));

  const start = async () => {
    setBusy(true);
    for (const item of items.filter((i) => i.state === 'waiting' || i.state === 'failed')) {
      const form = new FormData();
      if (metadata && Object.keys(metadata).length > 0) form.append('metadata', JSON.stringify(metadata));
      if (retention !== '') form.append('retention_days', String(retention));
      form.append('file', item.file, item.file.name);
      update(item.id, { state: 'uploading', progress: 0, message: undefined });
      try {
        await sendForm(workspacePath(workspaceId, '/recordings'), form, (progress) => update(item.id, { progress }));
        update(item.id, { state: 'done', progress: 1 });
      } catch (error) {
        update(item.id, { state: 'failed', message: problemMessage(error) });
      }
      await client.invalidateQueries({ queryKey: ['recordings', workspaceId] });
    }
    await client.invalidateQueries({ queryKey: ['metadata-fields', workspaceId] });
    setBusy(false);
  };

  const waiting = items.filter((i) => i.state === 'waiting' || i.state === 'failed').length;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Dropzone
          onDrop={(files) => setItems((current) => [...current, ...files.map((file) => ({ id: nextId++, file, progress: 0, state: 'waiting' as const }))])}
          accept={accept}
          multiple
          aria-label="Drop audio files here or choose them"
        >
          <Stack align="center" gap={4} py="lg" style={{ pointerEvents: 'none' }}>
            <Text fw={500}>Drop audio files here, or click to choose them</Text>
            <Text size="sm" c="dimmed">
              WAV, MP3, M4A, OGG, Opus, FLAC; several at once
            </Text>
          </Stack>
        </Dropzone>
        {items.length > 0 && (
          <Stack gap="xs" aria-label="Files to upload">
            {items.map((item) => (
              <div key={item.id}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" truncate>
                    {item.file.name}
                  </Text>
                  <Text size="xs" c={item.state === 'failed' ? 'red' : 'dimmed'}>
                    {item.state === 'failed' ? item.message : item.state === 'done' ? 'Uploaded' : item.state === 'uploading' ? `${Math.round(item.progress * 100)} %` : 'Waiting'}
                  </Text>
                </Group>
                <Progress value={item.progress * 100} color={item.state === 'failed' ? 'red' : item.state === 'done' ? 'green' : 'blue'} aria-label={`Upload of ${item.file.name}`} size="sm" />
              </div>
            ))}
          </Stack>
        )}
        <Text fw={500} size="sm">
          Metadata for these files
        </Text>
        <MetadataEditor onChange={setMetadata} suggestions={suggestions} />
        <NumberInput label="Keep the audio for (days)" description="Leave empty for the workspace's default" min={1} max={3650} value={retention} onChange={setRetention} w={260} />
        <Group>
          <Button onClick={() => void start()} disabled={waiting === 0 || metadata === null} loading={busy}>
            Upload {waiting > 0 ? `${waiting} ${waiting === 1 ? 'file' : 'files'}` : ''}
          </Button>
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
