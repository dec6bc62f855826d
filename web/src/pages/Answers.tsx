// Answers across calls: one row per call, one column per question — the answer (marked uncertain
// when its confidence is low) linked to the moment of its evidence in the call. For one execution
// (?execution_id=) or every call's latest result; filtered by answer and by the recordings' own
// filters (an agent's calls, a week, a category), exportable as CSV.
import { Anchor, Badge, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { download, workspacePath } from '../api/client.ts';
import { queries, useMetadataFields } from '../api/queries.ts';
import { RecordingFiltersBar } from '../components/RecordingFiltersBar.tsx';
import { activeFilterCount, filtersFromSearch, filtersToSearch } from '../lib/filters.ts';
import { answerTableQuery, queuedCallHref } from '../lib/answer-query.ts';
import { ProblemAlert } from '../components/Problem.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { formatCallTime } from '../lib/dates.ts';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import '../styles/phone-cards.css';
import { usePageTitle } from '../components/PageTitle.ts';

// A text question is filtered by its review or its uncertainty, not by yes or no.
const reviewChoices = [
  { value: 'uncertain', label: 'Uncertain' },
  { value: 'reviewed', label: 'Reviewed' },
  { value: 'overturned', label: 'Corrected by a reviewer' },
];
const choicesOf = (type: string) => (type === 'boolean' ? [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }, ...reviewChoices] : reviewChoices);

export default function Answers() {
  const phone = useMediaQuery('(max-width: 36em)');
  const workspace = useWorkspace();
  usePageTitle('Answers across calls', workspace.name);
  const { scenarioId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const executionId = search.get('execution_id');
  const filters = Object.fromEntries([...search.entries()].filter(([name]) => name.startsWith('answer.')));
  // A call opened from here can go on to the next call of this table (its review queue).
  const callHref = (recordingId: string, at: number | null) => queuedCallHref(workspace.id, recordingId, scenarioId, search, at);
  // "Sam's calls with no refund": the recordings' filters beside the answers'.
  const callFilters = filtersFromSearch(search);
  const fields = useMetadataFields(workspace.id);
  const [showCallFilters, setShowCallFilters] = useState(false);
  const query = answerTableQuery(search);

  const table = useQuery(queries.answers(workspace.id, scenarioId, query));
  const questions = table.data?.questions ?? [];
  const setFilter = (id: string, value: string | null) => {
    const next = new URLSearchParams(search);
    if (value) next.set(`answer.${id}`, value);
    else next.delete(`answer.${id}`);
    setSearch(next, { replace: true });
  };
  const csv = () => {
    // A field filtered by several values is named once per value, as the table asks.
    const params = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, String(x)])));
    return download(workspacePath(workspace.id, `/analysis-scenarios/${encodeURIComponent(scenarioId)}/answers?${params.toString()}`), 'answers.csv', 'text/csv');
  };

  return (
    <Stack>
      <Anchor component={Link} to={executionId ? `/w/${workspace.id}/executions` : `/w/${workspace.id}/scenarios/analysis/${scenarioId}`} size="sm">
        ← {executionId ? 'Executions' : 'Scenario'}
      </Anchor>
      <Title order={1}>Answers across calls</Title>
      <Text size="sm" c="dimmed">
        {executionId ? 'The calls of one execution.' : "Each call's latest answers."} {table.data ? `${table.data.total} ${table.data.total === 1 ? 'call' : 'calls'}.` : ''}
      </Text>
      <ProblemAlert error={table.error} />
      {phone && (
        <Button variant="default" w="fit-content" onClick={() => setShowCallFilters(!showCallFilters)} aria-expanded={showCallFilters} data-filters-toggle>
          {showCallFilters ? 'Hide call filters' : activeFilterCount(callFilters) > 0 ? `Call filters (${activeFilterCount(callFilters)} applied)` : 'Call filters'}
        </Button>
      )}
      {(!phone || showCallFilters) && (
        <RecordingFiltersBar
          filters={callFilters}
          fields={fields.data?.data ?? []}
          onChange={(next) => setSearch(filtersToSearch(next, search), { replace: true })}
          otherFilters={Object.keys(filters).length}
          // Every filter goes, the answers' too; the execution the table is of stays.
          onClear={() => setSearch(executionId ? { execution_id: executionId } : {}, { replace: true })}
        />
      )}
      <Group align="flex-end">
        {questions.map((q) => (
          <Select key={q.id} label={q.text} aria-label={`Filter: ${q.text}`} placeholder="Any answer" data={choicesOf(q.type)} clearable value={filters[`answer.${q.id}`] ?? null} onChange={(value) => setFilter(q.id, value)} w={240} />
        ))}
        <Button variant="default" onClick={() => void csv()}>
          Download CSV
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={phone ? 0 : 360}>
        <Table striped aria-label="Answers" aria-busy={table.isPending} className="hark-phone-cards">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Call</Table.Th>
              {questions.map((q) => (
                <Table.Th key={q.id} title={q.text}>
                  {q.text}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.data?.rows.map((row) => (
              <Table.Tr key={row.analysis_run_id} data-call={row.recording_id}>
                <Table.Td>
                  <Anchor component={Link} to={callHref(row.recording_id, null)} size="sm">
                    {row.filename}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {formatCallTime(row.recorded_at)}
                    {Object.keys(row.metadata).length > 0 ? ` · ${Object.entries(row.metadata).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' · ')}` : ''}
                  </Text>
                  {row.outdated && (
                    <Text size="xs" c="#9a3412" data-outdated title="The call was transcribed again, or corrected, after these answers: open it and analyse again for answers of what it now says.">
                      Answers of an earlier transcript: analyse again
                    </Text>
                  )}
                  {row.superseded && (
                    <Text size="xs" c="#9a3412" data-superseded title="The call was analysed again after this execution: its page shows, and reviews, the newest answers; reports count those.">
                      Analysed again since: the call shows newer answers
                    </Text>
                  )}
                </Table.Td>
                {questions.map((q) => {
                  const cell = row.answers[q.id];
                  if (!cell)
                    return (
                      <Table.Td key={q.id} data-label={q.text}>
                        —
                      </Table.Td>
                    );
                  return (
                    <Table.Td key={q.id} data-question={q.id} data-answer={String(cell.answer)} data-label={q.text}>
                      <Group gap={4} wrap="nowrap">
                        {typeof cell.answer === 'boolean' ? (
                          <Anchor component={Link} to={callHref(row.recording_id, cell.evidence_start)} underline="never" aria-label={`${cell.answer ? 'Yes' : 'No'}: open the call${cell.evidence_start === null ? '' : ' at the evidence'}`}>
                            <Badge color={cell.answer ? 'green' : 'red'} styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                              {cell.answer ? 'Yes' : 'No'}
                            </Badge>
                          </Anchor>
                        ) : (
                          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                            {cell.answer || '—'}
                          </Text>
                        )}
                        {cell.uncertain && (
                          <Badge color="yellow" variant="light" size="sm" styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                            Uncertain
                          </Badge>
                        )}
                        {cell.reviewed && (
                          <Badge
                            color="teal"
                            variant="light"
                            size="sm"
                            title={cell.overturned ? 'A person corrected the engine\'s answer: this one is theirs' : 'A person agreed with this answer'}
                            data-reviewed={cell.overturned ? 'overturned' : 'agreed'}
                            styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}
                          >
                            {cell.overturned ? 'Corrected' : 'Reviewed'}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {table.data?.rows.length === 0 && <Text c="dimmed">No call matches.</Text>}
    </Stack>
  );
}
