// Upload many files at once by dragging them in (or choosing them), each with its own progress
// bar; the batch's metadata and retention apply to every file, and each file can have its own
// values from a CSV (`file,agent,queue,…`) or a file-name pattern (`{agent}_{recorded_at}_{queue}.wav`);
// a recorded_at value is sent as when the call took place.
// A new batch starts clean: the uploaded files and the metadata of the last one are cleared.
import { Button, FileInput, Group, Paper, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, sendForm, workspacePath } from '../api/client.ts';
import { keys } from '../api/queries.ts';
import { csvSummary, fileWarning, metadataForFile, metadataFromCsv, splitCallTime } from '../lib/per-file-metadata.ts';
import { FileDrop } from './FileDrop.tsx';
import { MetadataEditor } from './MetadataEditor.tsx';
import { problemMessage } from './Problem.tsx';
import { RetentionDaysInput, retentionError } from './RetentionDaysInput.tsx';
import { useWorkspace } from './WorkspaceLayout.tsx';

interface Item {
  id: number;
  file: File;
  progress: number;
  /** `refused`: the file itself was refused (not audio, too large); sending it again cannot help. */
  state: 'waiting' | 'uploading' | 'done' | 'failed' | 'refused';
  message?: string;
}

/** The file itself refused (415 not audio, 413 too large): unlike a lost connection or bad metadata, sending it again cannot help. */
const fileRefused = (error: unknown) => error instanceof ApiError && (error.problem.status === 413 || error.problem.status === 415);

const accept = ['audio/*', 'video/mp4', 'video/webm', 'application/ogg', '.m4a', '.flac', '.opus'];
let nextId = 0;

export function UploadPanel({ workspaceId, suggestions, onClose }: { workspaceId: string; suggestions: string[]; onClose: () => void }) {
  const [items, setItems] = useState<Item[]>([]);
  const [metadata, setMetadata] = useState<Record<string, unknown> | null>({});
  const [retention, setRetention] = useState<number | string>('');
  const retentionRange = useWorkspace().retention;
  const [busy, setBusy] = useState(false);
  const [csv, setCsv] = useState<{ name: string; byFile: Map<string, Record<string, string>>; problem: string | null } | null>(null);
  const [pattern, setPattern] = useState('');
  /** The names of the last drop's files that are not audio, left out of the batch. */
  const [skipped, setSkipped] = useState<string[]>([]);
  /** Changed after a batch, so the metadata editor starts empty for the next one. */
  const [batch, setBatch] = useState(0);
  const client = useQueryClient();
  const ownMetadata = (file: File) => metadataForFile(file.name, metadata ?? {}, csv?.byFile ?? null, pattern);
  // Said before the upload: a name the pattern does not fit, a file the CSV lacks, a call time that is no date.
  const warningOf = (file: File) => fileWarning(file.name, metadata ?? {}, csv?.byFile ?? null, pattern);

  // The CSV chosen stays named in its field (it read "Choose a CSV" after one was chosen).
  const [csvFile, setCsvFile] = useState<File | null>(null);
  const readCsv = async (file: File | null) => {
    setCsvFile(file);
    if (!file) return setCsv(null);
    const text = await file.text();
    setCsv({ name: file.name, ...metadataFromCsv(text) });
  };

  const update = (id: number, change: Partial<Item>) => setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));

  const start = async () => {
    setBusy(true);
    for (const item of items.filter((i) => i.state === 'waiting' || i.state === 'failed')) {
      const form = new FormData();
      // A recorded_at value (a CSV column, {recorded_at} in the pattern) is when the call took place, not metadata.
      const { metadata: own, recordedAt, problem } = splitCallTime(ownMetadata(item.file));
      if (problem) {
        update(item.id, { state: 'failed', message: problem });
        continue;
      }
      if (Object.keys(own).length > 0) form.append('metadata', JSON.stringify(own));
      if (recordedAt) form.append('recorded_at', recordedAt);
      if (retention !== '') form.append('retention_days', String(retention));
      form.append('file', item.file, item.file.name);
      update(item.id, { state: 'uploading', progress: 0, message: undefined });
      try {
        await sendForm(workspacePath(workspaceId, '/recordings'), form, (progress) => update(item.id, { progress }));
        update(item.id, { state: 'done', progress: 1 });
      } catch (error) {
        update(item.id, { state: fileRefused(error) ? 'refused' : 'failed', message: problemMessage(error) });
      }
      await client.invalidateQueries({ queryKey: keys.recordings(workspaceId) });
    }
    await client.invalidateQueries({ queryKey: keys.metadataFields(workspaceId) });
    setBusy(false);
  };

  /** Files dropped after a finished batch start a new one: nothing of the last one stays. */
  const add = (files: File[]) => {
    const finished = items.length > 0 && items.every((i) => i.state === 'done' || i.state === 'refused');
    if (finished) {
      setMetadata({});
      setCsv(null);
      setCsvFile(null);
      setPattern('');
      setRetention('');
      setBatch((n) => n + 1);
    }
    setItems((current) => [...(finished ? [] : current), ...files.map((file) => ({ id: nextId++, file, progress: 0, state: 'waiting' as const }))]);
  };

  const waiting = items.filter((i) => i.state === 'waiting' || i.state === 'failed').length;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <FileDrop onDrop={add} onSkip={(files) => setSkipped(files.map((file) => file.name))} accept={accept}>
          <Stack align="center" gap={4} py="lg" style={{ pointerEvents: 'none' }}>
            <Text fw={500}>Drop audio files here, or click to choose them</Text>
            <Text size="sm" c="dimmed">
              WAV, MP3, M4A, OGG, Opus, FLAC; several at once
            </Text>
          </Stack>
        </FileDrop>
        {skipped.length > 0 && (
          <Text size="sm" c="red.9" role="status" data-skipped>
            Left out, not audio: {skipped.join(', ')}. Hark takes WAV, MP3, M4A, OGG, Opus and FLAC.
          </Text>
        )}
        {items.length > 0 && (
          <Stack gap="xs" aria-label="Files to upload">
            {items.map((item) => {
              const failed = item.state === 'failed' || item.state === 'refused';
              return (
                <div key={item.id}>
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" truncate>
                      {item.file.name}
                    </Text>
                    <Text size="xs" c={failed ? 'red' : 'dimmed'}>
                      {failed ? item.message : item.state === 'done' ? 'Uploaded' : item.state === 'uploading' ? `${Math.round(item.progress * 100)} %` : 'Waiting'}
                    </Text>
                  </Group>
                  {item.state === 'waiting' && <FileWarning name={item.file.name} warning={warningOf(item.file)} />}
                  {Object.keys(ownMetadata(item.file)).length > 0 && (
                    <Text size="xs" c="dimmed" data-file-metadata={item.file.name}>
                      {Object.entries(ownMetadata(item.file))
                        .map(([field, value]) => `${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
                        .join(' · ')}
                    </Text>
                  )}
                  <Progress value={item.progress * 100} color={failed ? 'red' : item.state === 'done' ? 'green' : 'blue'} aria-label={`Upload of ${item.file.name}`} size="sm" />
                </div>
              );
            })}
          </Stack>
        )}
        <Text fw={500} size="sm">
          Metadata for these files
        </Text>
        <MetadataEditor key={batch} onChange={setMetadata} suggestions={suggestions} />
        <Group align="flex-start" grow>
          <FileInput
            label="Metadata per file (CSV)"
            description={
              // Breaks after a comma on a narrow screen, not inside a field's name ("recorde d_at").
              <>
                First column file, then a column per field: file,<wbr />
                agent,<wbr />
                queue,<wbr />
                recorded_at
              </>
            }
            placeholder="Choose a CSV"
            accept=".csv,text/csv"
            clearable
            clearButtonProps={{ 'aria-label': 'Remove the CSV' }}
            value={csvFile}
            onChange={(file) => void readCsv(file)}
            error={csv?.problem ?? undefined}
          />
          <TextInput
            label="File-name pattern"
            description="Fields from each file's name; {recorded_at} is when the call took place (2026-11-20, or 2026-11-20T0930)"
            placeholder="e.g. {agent}_{recorded_at}_{queue}.wav"
            value={pattern}
            onChange={(event) => setPattern(event.currentTarget.value)}
          />
        </Group>
        {csv && !csv.problem && <Text size="xs" c="dimmed" data-csv-summary>{csvSummary(csv.name, csv.byFile, items.map((item) => item.file.name))}</Text>}
        <RetentionDaysInput value={retention} onChange={setRetention} />
        <Group>
          <Button onClick={() => void start()} disabled={waiting === 0 || metadata === null || Boolean(csv?.problem) || retentionError(retention, retentionRange) !== null} loading={busy}>
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

/** What a file waiting to be sent will lack or have refused, said beside it. */
function FileWarning({ name, warning }: { name: string; warning: string | null }) {
  return warning === null ? null : (
    <Text size="xs" c="#9a3412" data-file-warning={name}>
      {warning}
    </Text>
  );
}
