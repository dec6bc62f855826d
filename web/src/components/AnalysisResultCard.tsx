// One analysis result: the summary, every question with its typed answer, and the passages behind
// it, each a link that plays the audio from there.
import { Anchor, Badge, Card, Group, List, Stack, Text } from '@mantine/core';
import type { Schemas } from '../api/client.ts';
import { formatTime } from '../lib/transcript-sync.ts';

export function AnalysisResultCard({ result, scenarioName, onSeek }: { result: Schemas['AnalysisResult']; scenarioName: string; onSeek: (seconds: number) => void }) {
  return (
    <Card withBorder radius="md" data-result={result.analysis_run_id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{scenarioName}</Text>
          <Text size="xs" c="dimmed">
            {result.engine === 'basic' ? 'basic engine (no language model)' : `${result.engine} · ${result.model}`} · {new Date(result.created_at).toLocaleString()}
          </Text>
        </Group>
        {result.summary && <Text size="sm">{result.summary}</Text>}
        {result.answers.map((answer) => (
          <Stack key={answer.question_id} gap={4} data-question={answer.question_id}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {answer.type === 'boolean' ? (
                <Badge color={answer.answer === true ? 'green' : 'red'} miw={46} data-answer={String(answer.answer)}>
                  {answer.answer === true ? 'Yes' : 'No'}
                </Badge>
              ) : (
                <Badge color="gray" variant="light" miw={46}>
                  Text
                </Badge>
              )}
              <Stack gap={2}>
                <Text size="sm" fw={500}>
                  {answer.question}
                </Text>
                {answer.type === 'text' && (
                  <Text size="sm" data-answer="text">
                    {String(answer.answer) || '—'}
                  </Text>
                )}
              </Stack>
            </Group>
            {answer.evidence.length > 0 && (
              <List size="xs" ml="xl" spacing={2} aria-label={`Evidence for: ${answer.question}`}>
                {answer.evidence.map((e, i) => (
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
            )}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
