// Recordings: a table with status, duration, creation and chosen metadata columns; filters kept
// in the URL; cursor paging; upload by drag-and-drop; import from a URL.
import { Anchor, Button, Group, Loader, MultiSelect, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type Schemas } from '../api/client.ts';
import { queries, useMetadataFields } from '../api/queries.ts';
import { ProblemAlert } from '../components/Problem.tsx';
import { RecordingFiltersBar } from '../components/RecordingFiltersBar.tsx';
import { movingPipeline, PipelineBadge } from '../components/Status.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { activeFilterCount, filtersFromSearch, filtersToQuery, filtersToSearch, recordingListQuery } from '../lib/filters.ts';
import { useMediaQuery } from '@mantine/hooks';
import { formatTime } from '../lib/transcript-sync.ts';
import { can } from '../session.tsx';
import { formatCallTime, formatDateTime } from '../lib/dates.ts';
import { usePageTitle } from '../components/PageTitle.ts';
import '../styles/phone-cards.css';

export type Recording = Schemas['Recording'];

// Opened by a click: their code (and the drop zone's) loads then, not with the list.
const UploadPanel = lazy(() => import('../components/UploadPanel.tsx').then((m) => ({ default: m.UploadPanel })));
const ImportPanel = lazy(() => import('../components/ImportPanel.tsx').then((m) => ({ default: m.ImportPanel })));


const cell = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export default function Recordings() {
  const workspace = useWorkspace();
  usePageTitle('Recordings', workspace.name);
  // Below this width the table's rows are blocks (phone-cards.css).
  const cards = useMediaQuery('(max-width: 36em)');
  const [search, setSearch] = useSearchParams();
  // Each panel opens and closes on its own: opening one never drops what the other holds.
  const [uploading, setUploading] = useState(false);
  const [importing, setImporting] = useState(false);
  // On a phone the filters, columns and order fold behind one button: open, they took the screen
  // before the first call (730 px).
  const phone = useMediaQuery('(max-width: 48em)');
  const [showFilters, setShowFilters] = useState(false);
  const filters = filtersFromSearch(search);
  const cursor = search.get('cursor');
  const columns = (search.get('columns') ?? '').split(',').filter(Boolean);
  // The list's query (filters, cursor, order) as the route's prefetch reads it from the URL.
  const query = recordingListQuery(search);
  const sort = query.sort;
  const fields = useMetadataFields(workspace.id);

  const list = useQuery({
    ...queries.recordings(workspace.id, query),
    // Poll while something on the page is still moving.
    refetchInterval: (query) => (query.state.data?.data.some((r) => movingPipeline.has(r.pipeline.status)) ? 2000 : false),
  });

  const setColumns = (next: string[]) => {
    const params = new URLSearchParams(search);
    if (next.length > 0) params.set('columns', next.join(','));
    else params.delete('columns');
    setSearch(params);
  };
  const setSort = (next: string | null) => {
    const params = new URLSearchParams(search);
    params.delete('cursor');
    if (next === 'recorded_at') params.set('sort', next);
    else params.delete('sort');
    setSearch(params);
  };
  const page = (next: string | null) => {
    const params = new URLSearchParams(search);
    if (next) params.set('cursor', next);
    else params.delete('cursor');
    setSearch(params);
  };
  const fieldNames = fields.data?.data.map((f) => f.field) ?? [];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Recordings</Title>
        {can.write(workspace.role) && (
          <Group gap="xs">
            {/* They open their panels; a panel closes by its own Close, so files chosen are never dropped by a second click here. */}
            <Button variant={uploading ? 'light' : 'filled'} aria-expanded={uploading} onClick={() => setUploading(true)}>
              Upload
            </Button>
            <Button variant="default" aria-expanded={importing} onClick={() => setImporting(true)}>
              Import from a URL
            </Button>
          </Group>
        )}
      </Group>
      <Suspense fallback={<Loader size="sm" aria-label="Loading" />}>
        {uploading && <UploadPanel workspaceId={workspace.id} suggestions={fieldNames} onClose={() => setUploading(false)} />}
        {importing && <ImportPanel workspaceId={workspace.id} onClose={() => setImporting(false)} />}
      </Suspense>
      {phone && (
        <Button variant="default" w="fit-content" onClick={() => setShowFilters(!showFilters)} aria-expanded={showFilters} data-filters-toggle>
          {showFilters ? 'Hide filters' : activeFilterCount(filters) > 0 ? `Filters (${activeFilterCount(filters)} applied)` : 'Filters, columns and order'}
        </Button>
      )}
      {(!phone || showFilters) && (
        <>
          <RecordingFiltersBar filters={filters} fields={fields.data?.data ?? []} onChange={(next) => setSearch(filtersToSearch(next, search))} />
          <Group align="end" gap="sm">
            <MultiSelect
              label="Metadata columns"
              placeholder={fieldNames.length > 0 ? 'Show fields as columns' : 'No metadata yet'}
              data={fieldNames}
              value={columns}
              onChange={setColumns}
              w={480}
              maw="100%"
              clearable
              searchable
            />
            <Select
              label="Order"
              w={220}
              allowDeselect={false}
              data={[
                { value: 'created_at', label: 'Latest uploads first' },
                { value: 'recorded_at', label: 'Latest calls first' },
              ]}
              value={sort}
              onChange={setSort}
            />
          </Group>
        </>
      )}
      <ProblemAlert error={list.error} />
      {list.data && list.data.data.length === 0 ? (
        <Text c="dimmed" py="xl" ta="center">
          {cursor || Object.keys(filtersToQuery(filters)).length > 0 ? 'No recordings match these filters.' : 'No recordings yet. Upload a file to get its transcript.'}
        </Text>
      ) : (
        // On a phone each call is a block of its own (phone-cards.css), not a table wider than the screen.
        <Table.ScrollContainer minWidth={cards ? 0 : 340 + columns.length * 110}>
          <Table striped highlightOnHover aria-label="Recordings" aria-busy={list.isPending} className="hark-phone-cards">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Status</Table.Th>
                {/* At phone width the call's name, status and date fit; duration and upload time show from sm up. */}
                <Table.Th visibleFrom="sm">Duration</Table.Th>
                <Table.Th>Call date</Table.Th>
                <Table.Th visibleFrom="sm">Uploaded</Table.Th>
                {columns.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((recording) => (
                <Table.Tr key={recording.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/w/${workspace.id}/recordings/${recording.id}`}>
                      {recording.filename}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <PipelineBadge pipeline={recording.pipeline} />
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{recording.duration_seconds === null ? '' : formatTime(recording.duration_seconds)}</Table.Td>
                  <Table.Td data-label="Call date">{formatCallTime(recording.recorded_at)}</Table.Td>
                  <Table.Td visibleFrom="sm">{formatDateTime(recording.created_at)}</Table.Td>
                  {columns.map((c) => (
                    <Table.Td key={c} data-label={c}>
                      {cell((recording.metadata as Record<string, unknown>)[c])}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        {cursor && (
          <Button variant="default" onClick={() => page(null)}>
            First page
          </Button>
        )}
        {list.data?.next_cursor && (
          <Button variant="default" onClick={() => page(list.data.next_cursor)}>
            Next page
          </Button>
        )}
      </Group>
    </Stack>
  );
}
