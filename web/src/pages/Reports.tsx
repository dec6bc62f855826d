// Reports: an analysis scenario's yes-rates per group (a metadata field and/or day, week, month)
// as a chart and a table, with CSV; and recordings per group with their hours of audio.
import '@mantine/charts/styles.css';
import { Anchor, Button, Group, Paper, SegmentedControl, Select, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { BarChart, LineChart } from '@mantine/charts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, download, ok, workspacePath } from '../api/client.ts';
import { keys, queries, useAnalysisScenarios, useMetadataFields } from '../api/queries.ts';
import { ProblemAlert, problemMessage } from '../components/Problem.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { wholePercents } from '../lib/percent.ts';
import { signedScore } from '../lib/filters.ts';
import { chartOf, lineStyle, ONE_CHANNEL, speakerLabel, type ChartData } from '../lib/report-chart.ts';
import { periodLabel } from '../lib/dates.ts';
import { recordingStatusLabels, type RecordingStatus } from '../lib/recording-status.ts';
import { notifications } from '@mantine/notifications';
import { formatDuration } from '../lib/durations.ts';
import { usePageTitle } from '../components/PageTitle.ts';

const choiceKey = (workspaceId: string) => `hark.reports.scenario.${workspaceId}`;
/** The analysis scenario last chosen on the Reports page of a workspace, on this browser. */
function readChoice(workspaceId: string): string | null {
  try {
    return localStorage.getItem(choiceKey(workspaceId));
  } catch {
    return null;
  }
}
function rememberChoice(workspaceId: string, scenarioId: string): void {
  try {
    localStorage.setItem(choiceKey(workspaceId), scenarioId);
  } catch {
    // Storage refused (private mode): the page keeps its choice in the address only.
  }
}

/** A group's value as the table shows it: a period as people say it ("week of 16 Nov 2026"), no value as "(none)". */
const keyLabel = (key: string, value: string | null | undefined): string => {
  if (value === null || value === undefined) return '(none)';
  const period = /^(?:recorded_at|created_at):(day|week|month)$/.exec(key)?.[1];
  return period ? periodLabel(value, period) : value;
};

const colors = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'lime.7', 'cyan.6', 'pink.6'];

/** The field select's value for grouping by call category (no metadata field is named so). */
const CATEGORY = '@category';


/** Hours of audio as hours and minutes ("2 h 05 min"), or minutes and seconds under an hour ("0 min 17 s"); whole seconds counted as the list and the player count them (down). */
const audioLength = (seconds: number): string => {
  const total = Math.floor(seconds);
  if (total >= 3600) return `${Math.floor(total / 3600)} h ${String(Math.floor((total % 3600) / 60)).padStart(2, '0')} min`;
  return `${Math.floor(total / 60)} min ${String(total % 60).padStart(2, '0')} s`;
};

/** A chart point's tooltip: each series' rate and how many answers it is of ("100 % of 1" is not "100 % of 40"). */
function RateTooltip({ label, points, chart }: { label: string; points: { name: string; value: number | null; color: string }[]; chart: ChartData }) {
  if (points.length === 0) return null;
  return (
    <Paper withBorder shadow="sm" p="xs" data-rate-tooltip>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      {points.map((p) => {
        const n = chart.counts[label]?.[p.name] ?? 0;
        const name = chart.series.find((s) => s.name === p.name)?.label ?? p.name;
        return (
          <Text key={p.name} size="sm">
            <span style={{ color: p.color }}>●</span> {name}: {p.value === null ? '—' : `${p.value} %`} of {n} {n === 1 ? 'answer' : 'answers'}
          </Text>
        );
      })}
    </Paper>
  );
}

export default function Reports() {
  const workspace = useWorkspace();
  usePageTitle('Reports', workspace.name);
  const [search, setSearch] = useSearchParams();
  /** The tab shown: the question to chart belongs to the Answers tab alone. */
  const [tab, setTab] = useState<string | null>('analysis');
  const scenarios = useAnalysisScenarios(workspace.id);
  const fields = useMetadataFields(workspace.id);
  // Unless one is chosen, the scenario whose answers are newest (the first one where none has any):
  // opening Reports shows answers, not an empty chart for a scenario never run.
  const known = (id: string | undefined) => (id && scenarios.data?.data.some((s) => s.id === id) ? id : undefined);
  // The scenario last chosen here (on this browser) before the one that ran last: one call analysed
  // with another scenario does not turn the page to a report of one call.
  const remembered = known(readChoice(workspace.id) ?? undefined);
  const newest = useQuery({
    queryKey: [...keys.reports(workspace.id), 'newest-result'] as const,
    queryFn: () => ok(api.GET('/api/v1/workspaces/{workspace_id}/analysis-results', { params: { path: { workspace_id: workspace.id }, query: { limit: 1 } } })),
    // Not asked where the address or this browser's last choice names a scenario that still exists
    // (with no choice kept, asked at once, beside the scenarios).
    enabled: !search.get('scenario') && (readChoice(workspace.id) === null || (scenarios.isSuccess && remembered === undefined)),
  });
  const newestScenario = newest.data?.data[0]?.analysis_scenario_id;
  const scenarioId = search.get('scenario') ?? remembered ?? (newest.isPending ? null : (known(newestScenario) ?? scenarios.data?.data[0]?.id ?? null));
  const field = search.get('field');
  const period = search.get('period');
  const questionId = search.get('question');
  const set = (name: string, value: string | null) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next, { replace: true });
  };
  // The field select also offers the call categories (a call in two counts in both groups).
  const fieldKey = field ? (field === CATEGORY ? 'category' : `metadata.${field}`) : null;
  const groupBy = [...(fieldKey ? [fieldKey] : []), ...(period ? [`recorded_at:${period}`] : [])];
  const query = new URLSearchParams(groupBy.map((g) => ['group_by', g]));

  const analysis = useQuery(queries.analysisReport(workspace.id, scenarioId, groupBy));
  const recordings = useQuery(queries.recordingsReport(workspace.id, groupBy));

  const talk = useQuery(queries.talkReport(workspace.id, groupBy));
  const talkSpeakers = [...new Set((talk.data?.groups ?? []).flatMap((g) => g.speakers.map((s) => s.speaker)))].sort();

  // Each group's talk shares as a stacked bar per speaker (they add up to 100 %).
  const talkRows = (talk.data?.groups ?? []).map((g) => ({
    group: groupBy.map((k) => keyLabel(k, g.key[k])).join(' · ') || 'All calls',
    ...Object.fromEntries(talkSpeakers.map((name) => [name, Math.round((g.speakers.find((x) => x.speaker === name)?.talk_share ?? 0) * 100)])),
  }));
  /** Downloads a report as CSV (the grouping as the page has it); a refusal is shown, not thrown. */
  const csvOf = (report: string, params: string, filename: string) => async () => {
    try {
      await download(workspacePath(workspace.id, `/reports/${report}?${params}`), filename, 'text/csv');
    } catch (error) {
      notifications.show({ color: 'red', message: problemMessage(error) });
    }
  };
  const recordingsCsv = csvOf('recordings', query.toString(), 'recordings-report.csv');
  const talkCsv = csvOf('talk', query.toString(), 'talk-report.csv');

  const groups = analysis.data?.groups ?? [];
  const questions = groups[0]?.questions ?? [];
  const chart = chartOf(groups, fieldKey, period, questionId);
  const answered = groups.flatMap((g) => g.questions);
  const answeredCount = answered.reduce((sum, q) => sum + q.true + q.false, 0);
  const uncertainCount = answered.reduce((sum, q) => sum + q.uncertain, 0);
  const mostlyUncertain = answeredCount > 0 && uncertainCount * 2 >= answeredCount;
  const csv = csvOf('analysis', `analysis_scenario_id=${encodeURIComponent(scenarioId ?? '')}&${query.toString()}`, 'analysis-report.csv');

  return (
    <Stack>
      <Title order={1}>Reports</Title>
      <Group align="end">
        <Select label="Analysis scenario" data={scenarios.data?.data.map((s) => ({ value: s.id, label: s.name })) ?? []} value={scenarioId} onChange={(v) => {
            if (v) rememberChoice(workspace.id, v);
            set('scenario', v);
          }} allowDeselect={false} w={260} />
        <Select label="Group by metadata field" placeholder="No field" data={[
            { group: 'Metadata', items: fields.data?.data.map((f) => f.field) ?? [] },
            { group: 'Calls', items: [{ value: CATEGORY, label: 'call category' }] },
          ]}
          value={field} onChange={(v) => set('field', v)} clearable w={220} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="period-label">
            Over time
          </Text>
          <SegmentedControl
            aria-labelledby="period-label"
            value={period ?? 'none'}
            onChange={(v) => set('period', v === 'none' ? null : v)}
            data={[
              { value: 'none', label: 'All' },
              { value: 'day', label: 'Day' },
              { value: 'week', label: 'Week' },
              { value: 'month', label: 'Month' },
            ]}
          />
        </Stack>
        {tab === 'analysis' && field && period && questions.length > 0 && (
          <Select label="Question" data={questions.map((q) => ({ value: q.question_id, label: q.question }))} value={questionId ?? questions[0]?.question_id ?? null} onChange={(v) => set('question', v)} allowDeselect={false} w={280} />
        )}
      </Group>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="analysis">Answers</Tabs.Tab>
          <Tabs.Tab value="recordings">Recordings</Tabs.Tab>
          <Tabs.Tab value="talk">Talk</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="analysis" pt="md">
          <Stack>
            <ProblemAlert error={analysis.error} />
            {groups.length === 0 && analysis.isSuccess && <Text c="dimmed">No analysis results for this scenario yet.</Text>}
            {mostlyUncertain && scenarioId && (
              // Rates of unsure answers give a quality lead nothing to act on: say what makes them sure.
              <Text size="sm" c="#9a3412" role="status" data-mostly-uncertain>
                {uncertainCount} of {answeredCount} yes/no answers here are uncertain. Without a language model, an answer is sure where the question’s phrases (the words that count, such as “thank you for calling”) are said or not:{' '}
                <Anchor component={Link} to={`/w/${workspace.id}/scenarios/analysis/${scenarioId}`} size="sm">
                  add phrases to its questions
                </Anchor>
                , then analyse again.
              </Text>
            )}
            {groups.length > 0 && chart.series.length > 0 && (
              <div aria-label="Yes-rate chart, in percent" role="img" data-testid="report-chart">
                {period ? (
                  <LineChart
                    h={300}
                    data={chart.rows}
                    dataKey={chart.x}
                    series={chart.series.map((s, i) => ({ name: s.name, label: s.label, color: colors[i % colors.length]! }))}
                    // Lines at the same rates stay in sight: each narrower than those drawn under it,
                    // dashed its own way, its dots smaller (a disc in the line's colour, not dashed).
                    lineProps={(series) => {
                      const style = lineStyle(chart.series.findIndex((s) => s.name === series.name), chart.series.length);
                      return { strokeWidth: style.strokeWidth, strokeDasharray: style.strokeDasharray, dot: { r: style.dotRadius, strokeWidth: 1, strokeDasharray: '' } };
                    }}
                    yAxisProps={{ domain: [0, 100], padding: { top: 8, bottom: 8 } }}
                    xAxisProps={{ padding: { left: 24, right: 24 } }}
                    unit=" %"
                    withLegend
                    // In the series' order, as the bars and the table (the legend sorted them by name).
                    legendProps={{ itemSorter: null }}
                    connectNulls
                    tooltipProps={{ content: ({ label, payload }) => <RateTooltip label={String(label ?? '')} points={(payload ?? []).map((p) => ({ name: String(p.name ?? ''), value: p.value as number | null, color: String(p.color ?? '') }))} chart={chart} /> }}
                  />
                ) : (
                  // A rate of 0 % still draws a sliver, so it is told apart from a question no call answered.
                  <BarChart
                    h={300}
                    data={chart.rows}
                    dataKey={chart.x}
                    series={chart.series.map((s, i) => ({ name: s.name, label: s.label, color: colors[i % colors.length]! }))}
                    yAxisProps={{ domain: [0, 100] }}
                    unit=" %"
                    withLegend
                    // In the series' order, as the bars and the table (the legend sorted them by name).
                    legendProps={{ itemSorter: null }}
                    minBarSize={3}
                    tooltipProps={{ content: ({ label, payload }) => <RateTooltip label={String(label ?? '')} points={(payload ?? []).map((p) => ({ name: String(p.name ?? ''), value: p.value as number | null, color: String(p.color ?? '') }))} chart={chart} /> }}
                  />
                )}
              </div>
            )}
            {groups.length > 0 && (
              <>
                <Group>
                  <Button variant="default" onClick={() => void csv()}>
                    Download CSV
                  </Button>
                </Group>
                <Table.ScrollContainer minWidth={600}>
                  <Table aria-label="Answers per group" striped>
                    <Table.Thead>
                      <Table.Tr>
                        {groupBy.map((g) => (
                          <Table.Th key={g}>{g.replace('metadata.', '').replace('recorded_at:', '')}</Table.Th>
                        ))}
                        <Table.Th>Calls</Table.Th>
                        {questions.map((q) => (
                          <Table.Th key={q.question_id}>{q.question}</Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {groups.map((g, i) => (
                        <Table.Tr key={i}>
                          {groupBy.map((k) => (
                            <Table.Td key={k}>{keyLabel(k, g.key[k])}</Table.Td>
                          ))}
                          <Table.Td>{g.calls}</Table.Td>
                          {g.questions.map((q) => (
                            <Table.Td key={q.question_id}>
                              {q.rate === null ? '—' : `${Math.round(q.rate * 100)} % yes (${q.true}/${q.true + q.false})`}
                              {q.uncertain > 0 && (
                                <Text span size="xs" c="dimmed" display="block" data-uncertain-count={q.uncertain} title="Answers marked uncertain: listen before counting on them">
                                  {q.uncertain} uncertain
                                </Text>
                              )}
                              {q.reviewed > 0 && (
                                <Text span size="xs" c="dimmed" display="block" data-reviewed-count={q.reviewed} title="Answers a person reviewed, and how many of them they changed: how often the engine was wrong on the answers checked">
                                  {q.reviewed} reviewed, {q.overturned} corrected
                                </Text>
                              )}
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </>
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="recordings" pt="md">
          <ProblemAlert error={recordings.error} />
          <Text size="sm" c="dimmed" mb="xs">
            Calls per group by where their audio stands (uploaded, ready, failed), and their length. Where each call stands in transcription and analysis is on the Recordings list.
          </Text>
          <Group justify="flex-end" mb="xs">
            <Button variant="default" onClick={() => void recordingsCsv()}>
              Download recordings CSV
            </Button>
          </Group>
          <Table.ScrollContainer minWidth={500}>
            <Table aria-label="Recordings per group" striped>
              <Table.Thead>
                <Table.Tr>
                  {groupBy.map((g) => (
                    <Table.Th key={g}>{g.replace('metadata.', '').replace('recorded_at:', '')}</Table.Th>
                  ))}
                  <Table.Th>Recordings</Table.Th>
                  <Table.Th>Audio status</Table.Th>
                  <Table.Th>Audio</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {recordings.data?.groups.map((g, i) => (
                  <Table.Tr key={i}>
                    {groupBy.map((k) => (
                      <Table.Td key={k}>{keyLabel(k, g.key[k])}</Table.Td>
                    ))}
                    <Table.Td>{g.recordings}</Table.Td>
                    <Table.Td>
                      {Object.entries(g.by_status)
                        .map(([s, n]) => `${recordingStatusLabels[s as RecordingStatus] ?? s.replace(/_/g, ' ')}: ${n}`)
                        .join(', ')}
                    </Table.Td>
                    <Table.Td>{audioLength(g.total_duration_seconds)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Tabs.Panel>
        <Tabs.Panel value="talk" pt="md">
          <ProblemAlert error={talk.error} />
          <Text size="sm" c="dimmed" mb="xs">
            Averages over each recording&apos;s latest transcript: each speaker&apos;s share of the talk and pace (over the calls they are heard in), and the silence, overlap and interruptions per call.
          </Text>
          {talkRows.length > 0 && talkSpeakers.length > 0 && (
            <div data-testid="talk-chart" aria-label="Share of the talk per group" role="img">
              <BarChart h={Math.max(160, 60 + talkRows.length * 44)} data={talkRows} dataKey="group" orientation="vertical" type="percent" series={talkSpeakers.map((name, i) => ({ name, label: speakerLabel(name), color: colors[i % colors.length]! }))} withLegend legendProps={{ itemSorter: null }} yAxisProps={{ width: 120 }} />
            </div>
          )}
          <Group justify="flex-end" mb="xs">
            <Button variant="default" onClick={() => void talkCsv()}>
              Download talk CSV
            </Button>
          </Group>
          <Table.ScrollContainer minWidth={600}>
            <Table aria-label="Talk per group" striped>
              <Table.Thead>
                <Table.Tr>
                  {groupBy.map((g) => (
                    <Table.Th key={g}>{g.replace('metadata.', '').replace('recorded_at:', '')}</Table.Th>
                  ))}
                  <Table.Th>Calls</Table.Th>
                  {talkSpeakers.map((s) => (
                    // Named as a speaker: a metadata field of the same name ("agent") may be a column too.
                    <Table.Th key={s}>{s === ONE_CHANNEL ? speakerLabel(s) : `Speaker ${s}`}</Table.Th>
                  ))}
                  <Table.Th>Silence</Table.Th>
                  <Table.Th>Overlap</Table.Th>
                  <Table.Th>Interruptions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {talk.data?.groups.map((g, i) => {
                  // Each speaker's share as whole percents that add up to 100 across the group's speakers.
                  const percents = wholePercents(g.speakers.map((s) => s.talk_share));
                  return (
                  <Table.Tr key={i}>
                    {groupBy.map((k) => (
                      <Table.Td key={k}>{keyLabel(k, g.key[k])}</Table.Td>
                    ))}
                    <Table.Td>{g.transcripts}</Table.Td>
                    {talkSpeakers.map((name) => {
                      const s = g.speakers.find((x) => x.speaker === name);
                      const mood = s && s.sentiment_avg !== null ? ` · sentiment ${signedScore(s.sentiment_avg)}` : '';
                      return <Table.Td key={name}>{s ? `${percents[g.speakers.indexOf(s)]} % · ${Math.round(s.words_per_minute_avg)} wpm${mood}` : '—'}</Table.Td>;
                    })}
                    <Table.Td>{formatDuration(g.silence_seconds_avg)}</Table.Td>
                    <Table.Td>{formatDuration(g.overlap_seconds_avg)}</Table.Td>
                    <Table.Td>{g.interruptions_avg.toFixed(1)}</Table.Td>
                  </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
