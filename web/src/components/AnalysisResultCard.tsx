// One analysis result: the summary, every question with its typed answer (marked uncertain when
// its confidence is low), the passages behind it and, apart, those that only resemble it; each
// passage a link that plays the audio from there.
import { Anchor, Badge, Card, Group, List, Stack, Text } from '@mantine/core';
import type { Schemas } from '../api/client.ts';
import { formatTime } from '../lib/transcript-sync.ts';
import { scopeLabel } from './QuestionEditor.tsx';
import { formatDateTime } from '../lib/dates.ts';

export function AnalysisResultCard({ result, scenarioName, onSeek }: { result: Schemas['AnalysisResult']; scenarioName: string; onSeek: (seconds: number) => void }) {
  return (
    <Card withBorder radius="md" data-result={result.analysis_run_id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{scenarioName}</Text>
          <Text size="xs" c="dimmed">
            {result.engine === 'basic' ? 'basic engine (no language model)' : `${result.engine} · ${result.model}`} · {formatDateTime(result.created_at)}
          </Text>
        </Group>
        {result.summary && <Text size="sm">{result.summary}</Text>}
        {result.answers.map((answer) => (
          <Stack key={answer.question_id} gap={4} data-question={answer.question_id}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {answer.type === 'boolean' ? (
                <Badge color={answer.answer === true ? 'green' : 'red'} miw={46} data-answer={String(answer.answer)} styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                  {answer.answer === true ? 'Yes' : 'No'}
                </Badge>
              ) : (
                <Badge color="gray" variant="light" miw={46} styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                  Text
                </Badge>
              )}
              {answer.uncertain && (
                <Badge color="yellow" variant="light" title={`Confidence ${Math.round(answer.confidence * 100)} %: listen before relying on it`} data-uncertain="true" style={{ flexShrink: 0 }}>
                  Uncertain
                </Badge>
              )}
              <Stack gap={2}>
                <Text size="sm" fw={500}>
                  {answer.question}
                </Text>
                {scopeLabel(answer) && (
                  <Text size="xs" c="dimmed" data-scope>
                    {scopeLabel(answer)}
                  </Text>
                )}
                {answer.type === 'text' && (
                  <Text size="sm" data-answer="text">
                    {String(answer.answer) || '—'}
                  </Text>
                )}
              </Stack>
            </Group>
            <Passages passages={answer.evidence} label={`Evidence for: ${answer.question}`} onSeek={onSeek} />
            {answer.related && answer.related.length > 0 && (
              <>
                <Text size="xs" ml="xl" c="dimmed">
                  Close, but not enough to answer:
                </Text>
                <Passages passages={answer.related} label={`Related passages for: ${answer.question}`} onSeek={onSeek} />
              </>
            )}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

/** Transcript passages, each a link that plays the audio from its start. */
function Passages({ passages, label, onSeek }: { passages: { text: string; start: number }[]; label: string; onSeek: (seconds: number) => void }) {
  if (passages.length === 0) return null;
  return (
    <List size="xs" ml="xl" spacing={2} aria-label={label}>
      {passages.map((e, i) => (
        <List.Item key={i}>
          <Anchor component="button" type="button" size="xs" onClick={() => onSeek(e.start)} data-evidence={e.start}>
            {formatTime(e.start)}
          </Anchor>{' '}
          <Text span size="xs" c="dimmed">
            “{e.text}”
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
