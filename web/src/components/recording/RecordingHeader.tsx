// The top of a recording's page: its name, pipeline state, dates, call categories and metadata, a
// failed preparation or download (with a retry under a new URL), and Delete (asked first).
import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, ok, type Schemas } from '../../api/client.ts';
import { keys } from '../../api/queries.ts';
import { formatCallTime, formatDate, formatDateTime } from '../../lib/dates.ts';
import { metadataEntries } from '../../lib/metadata-entries.ts';
import { failedStatuses, preparingStatuses } from '../../lib/recording-status.ts';
import { formatTime } from '../../lib/transcript-sync.ts';
import { ProblemAlert } from '../Problem.tsx';
import { MetadataEdit } from './MetadataEdit.tsx';
import { RetentionControl } from './RetentionControl.tsx';
import { PipelineBadge } from '../Status.tsx';
import { sectionHref } from '../WorkspaceLayout.tsx';
import { FileName } from '../FileName.tsx';

/** The recording holds audio, or will once prepared: not when its download or preparation failed, nor after its retention. */
const keepsAudio = (r: Schemas['Recording']) => r.audio_deleted_at === null && !failedStatuses.has(r.status);

// Memoised, as are the page's other parts: each of the page's queries answers on its own, and a
// part renders again only when what it shows changed (on a phone's CPU a whole page is a long task).
export const RecordingHeader = memo(function RecordingHeader({ workspaceId, recording: r, categories, writer }: { workspaceId: string; recording: Schemas['Recording']; categories: { id: string; name: string }[]; writer: boolean }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  // Opened from the answers across calls, the way back is the review queue's, above: one way back.
  const [search] = useSearchParams();
  const [deleting, { open: askDelete, close: cancelDelete }] = useDisclosure(false);
  const [newUrl, setNewUrl] = useState('');
  const path = { workspace_id: workspaceId, recording_id: r.id };
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}', { params: { path } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.recordings(workspaceId) });
      navigate(`/w/${workspaceId}/recordings`);
    },
  });
  const retryImport = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/recordings/{recording_id}/import/retry', { params: { path }, body: newUrl ? { url: newUrl } : {} })),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.recording(workspaceId, r.id) }),
  });

  return (
    <>
      {!search.has('queue') && (
        <Anchor component={Link} to={sectionHref(workspaceId, 'recordings')} size="sm">
          ← Recordings
        </Anchor>
      )}
      {/* Delete stays beside the title on a phone too: wrapped, it stood alone above the player. */}
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Title order={1} fz="h2" style={{ wordBreak: 'break-word' }}>
            <FileName name={r.filename} />
          </Title>
          <Group gap="xs">
            <PipelineBadge pipeline={r.pipeline} />
            {r.duration_seconds !== null && <Text size="sm">{formatTime(r.duration_seconds)}</Text>}
            <Text size="sm" c="dimmed">
              {r.recorded_at_source === 'upload' ? '' : `call of ${formatCallTime(r.recorded_at)} · `}added {formatDateTime(r.created_at)}
              {keepsAudio(r) && <RetentionControl workspaceId={workspaceId} recording={r} writer={writer} />}
            </Text>
          </Group>
          {categories.length > 0 && (
            <Group gap={6} aria-label="Categories">
              {categories.map((c) => (
                <Badge key={c.id} variant="outline" color="grape" tt="none" data-category={c.name}>
                  {c.name}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
        {writer && (
          <Button color="red" variant="light" onClick={askDelete} style={{ flexShrink: 0 }}>
            Delete
          </Button>
        )}
      </Group>
      {(Object.keys(r.metadata).length > 0 || writer) && (
        <Group gap="lg" align="center" style={{ rowGap: 4 }}>
          {Object.keys(r.metadata).length > 0 && (
            <Group gap="lg" component="dl" aria-label="Metadata" m={0} style={{ rowGap: 4 }}>
              {metadataEntries(r.metadata).map(([field, value]) => (
                <Group key={field} gap={6} wrap="nowrap" data-metadata-field={field}>
                  <Text component="dt" size="sm" c="dimmed">
                    {field}
                  </Text>
                  <Text component="dd" size="sm" m={0} ff={typeof r.metadata[field] === 'string' ? undefined : 'monospace'} style={{ overflowWrap: 'anywhere' }}>
                    {value}
                  </Text>
                </Group>
              ))}
            </Group>
          )}
          {writer && <MetadataEdit workspaceId={workspaceId} recording={r} />}
        </Group>
      )}
      {r.error_code && (
        <Alert color="red" title={`Failed: ${r.error_code}`}>
          {r.error_message}
        </Alert>
      )}
      {r.status === 'download_failed' && writer && (
        <Group align="end">
          <TextInput label="Retry the download with a new URL (or leave empty to retry the same)" value={newUrl} onChange={(e) => setNewUrl(e.currentTarget.value)} w={420} />
          <Button onClick={() => retryImport.mutate()} loading={retryImport.isPending}>
            Retry download
          </Button>
          <ProblemAlert error={retryImport.error} />
        </Group>
      )}
      {r.audio_deleted_at !== null && <Alert color="gray">The audio was deleted by its retention on {formatDate(r.audio_deleted_at)}; transcripts and results stay.</Alert>}
      {preparingStatuses.has(r.status) && <Alert color="blue">Preparing the audio… this page updates by itself.</Alert>}

      <Modal opened={deleting} onClose={cancelDelete} title="Delete this recording?" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">The audio, its transcripts and its analysis results are deleted for good.</Text>
          <ProblemAlert error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={cancelDelete}>
              Keep it
            </Button>
            <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
});
