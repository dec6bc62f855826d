// Search: words and "exact phrases" across the workspace's transcripts; each hit names its call
// (file, date, speaker, metadata such as the agent), shows the segment with the matching words
// marked, and links to its recording. The query lives in the URL.
import { Anchor, Badge, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { queries } from '../api/queries.ts';
import { ProblemAlert } from '../components/Problem.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { formatCallTime } from '../lib/dates.ts';
import { usePageTitle } from '../components/PageTitle.ts';

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The snippet as text with its <mark>…</mark> spans as <mark> elements (never parsed as HTML). */
function Snippet({ text }: { text: string }) {
  const parts = text.split(/(<mark>.*?<\/mark>)/g);
  return (
    <Text size="sm">
      {parts.map((part, i) => (part.startsWith('<mark>') ? <mark key={i}>{part.slice(6, -7)}</mark> : <span key={i}>{part}</span>))}
    </Text>
  );
}

/** A call's plain metadata fields as "agent: ana · queue: billing" (nested values left out). */
function metadataLine(metadata: Record<string, unknown>): string {
  return Object.entries(metadata)
    .filter(([, value]) => value !== null && typeof value !== 'object')
    .slice(0, 4)
    .map(([field, value]) => `${field}: ${String(value)}`)
    .join(' · ');
}

export default function Search() {
  const workspace = useWorkspace();
  usePageTitle('Search', workspace.name);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const hits = useQuery(queries.search(workspace.id, q));

  return (
    <Stack>
      <Title order={1}>Search</Title>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setParams(draft.trim() ? { q: draft.trim() } : {});
        }}
      >
        <TextInput label="Search transcripts" description={'Words, or "an exact phrase" in double quotes; press Enter'} value={draft} onChange={(event) => setDraft(event.currentTarget.value)} />
      </form>
      <ProblemAlert error={hits.error} />
      {hits.data?.data.length === 0 && <Text c="dimmed">No transcript matches “{q}”.</Text>}
      {hits.data?.data.map((hit) => (
        <Card key={hit.transcript_id} withBorder padding="sm" data-hit={hit.recording_id}>
          <Stack gap={6}>
            <Group gap="xs" wrap="wrap" data-hit-call>
              <Text size="sm" fw={600}>
                {hit.recording.filename}
              </Text>
              <Text size="xs" c="dimmed">
                {formatCallTime(hit.recording.recorded_at)}
              </Text>
              {hit.speaker && (
                <Badge variant="light" tt="none" size="sm" data-speaker={hit.speaker}>
                  said by {hit.speaker}
                </Badge>
              )}
              {hit.matches > 1 && (
                <Text size="xs" c="dimmed" data-hit-matches>
                  said in {hit.matches} places (the first shown)
                </Text>
              )}
              {metadataLine(hit.recording.metadata) && (
                <Text size="xs" c="dimmed">
                  {metadataLine(hit.recording.metadata)}
                </Text>
              )}
            </Group>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Snippet text={hit.snippet} />
              <Anchor component={Link} to={`/w/${workspace.id}/recordings/${hit.recording_id}?t=${hit.at}`} size="sm" style={{ whiteSpace: 'nowrap' }}>
                Open at {clock(hit.at)}
              </Anchor>
            </Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
