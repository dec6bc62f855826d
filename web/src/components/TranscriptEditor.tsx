// Correcting a transcript in place: each segment's text in a field; saving sends the segments
// that changed as one correction of the version read, which the server keeps as the next version
// (a concurrent correction makes it refuse, and the reviewer reads the new version first).
import { Button, Group, Paper, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Schemas } from '../api/client.ts';
import { formatTime } from '../lib/transcript-sync.ts';
import { ProblemAlert } from './Problem.tsx';

type Transcript = Schemas['Transcript'];

export function TranscriptEditor({ workspaceId, transcript, onSaved, onCancel }: { workspaceId: string; transcript: Transcript; onSaved: (next: Transcript) => void; onCancel: () => void }) {
  const [texts, setTexts] = useState(() => transcript.segments.map((s) => s.text));
  const changed = texts.flatMap((text, index) => (text.trim() !== transcript.segments[index]!.text.trim() ? [{ index, text: text.trim() }] : []));
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH('/api/v1/workspaces/{workspace_id}/transcription-runs/{run_id}/transcript', {
          params: { path: { workspace_id: workspaceId, run_id: transcript.transcription_run_id } },
          body: { segments: changed, version: transcript.version },
        }),
      ),
    onSuccess: (next) => {
      notifications.show({ color: 'green', message: `Saved as version ${next.version}; version ${transcript.version} is kept.` });
      onSaved(next);
    },
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm" aria-label="Correct the transcript">
        <Text size="sm" c="dimmed">
          Correct what was misheard. Each segment keeps its place in the audio; search and new analyses read the corrected text.
        </Text>
        <ProblemAlert error={save.error} title="Not saved" />
        <ScrollArea.Autosize mah={520} type="auto">
          <Stack gap="xs">
            {transcript.segments.map((segment, index) => (
              <Textarea
                key={index}
                label={`${formatTime(segment.start)} ${segment.speaker}`}
                autosize
                minRows={1}
                value={texts[index]}
                error={texts[index]!.trim() === '' ? 'A segment keeps at least one word' : undefined}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setTexts((all) => all.map((t, i) => (i === index ? value : t)));
                }}
              />
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={changed.length === 0 || changed.some((c) => c.text === '')}>
            Save corrections{changed.length > 0 ? ` (${changed.length})` : ''}
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
