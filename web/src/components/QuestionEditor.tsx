// One question of an analysis scenario: its key, text and answer type, and what a contact centre
// needs on top: who must have said it, within how many seconds, the phrases that answer a yes/no
// question without a model, and example sentences that mean yes for the engine to read beside it.
import { ActionIcon, Autocomplete, Group, NumberInput, Paper, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import type { Schemas } from '../api/client.ts';

export type Question = Schemas['AnalysisScenario']['questions'][number];

interface Props {
  question: Question;
  index: number;
  count: number;
  /** Speaker labels the workspace's transcription scenarios give. */
  speakers: string[];
  /** The labels its scenarios name channels with, where they say them all (none from metadata); null where unknown. */
  namedSpeakers?: string[] | null;
  onChange: (next: Question) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

/** The question without the optional fields left empty (the API refuses an empty phrase list). */
function tidy(question: Question): Question {
  const { speaker, within_seconds, phrases, examples, ...rest } = question;
  return {
    ...rest,
    ...(speaker ? { speaker } : {}),
    ...(within_seconds ? { within_seconds } : {}),
    ...(rest.type === 'boolean' && phrases && phrases.length > 0 ? { phrases } : {}),
    // A phrase rule is answered without the engine: examples would go unread.
    ...(rest.type === 'boolean' && examples && examples.length > 0 && !(phrases && phrases.length > 0) ? { examples } : {}),
  };
}

export function QuestionEditor({ question: q, index, count, speakers, namedSpeakers = null, onChange, onMove, onRemove }: Props) {
  const change = (patch: Partial<Question>) => onChange(tidy({ ...q, ...patch }));
  const n = index + 1;
  // A speaker no scenario names (a typo: "custmer") reads nobody's words: said before it is saved.
  const unnamed = q.speaker && namedSpeakers && namedSpeakers.length > 0 && !/^channel_\d+$/.test(q.speaker) && !namedSpeakers.some((s) => s.toLowerCase() === q.speaker!.toLowerCase());
  return (
    <Paper withBorder p="sm" radius="md" data-question-row={index}>
      <Stack gap="xs">
        <Group align="end" gap="xs" wrap="wrap">
          <TextInput label="Key" description="In reports and the API" w={200} value={q.id} onChange={(e) => change({ id: e.currentTarget.value })} />
          <TextInput label="Question" required flex={1} miw={220} value={q.text} onChange={(e) => change({ text: e.currentTarget.value })} />
          <Select
            label="Answer"
            w={130}
            allowDeselect={false}
            data={[
              { value: 'boolean', label: 'Yes / no' },
              { value: 'text', label: 'Text' },
            ]}
            value={q.type}
            onChange={(type) => change({ type: (type ?? 'boolean') as Question['type'] })}
          />
          <Group gap={2}>
            <ActionIcon variant="subtle" aria-label={`Move question ${n} up`} disabled={index === 0} onClick={() => onMove(-1)}>
              ↑
            </ActionIcon>
            <ActionIcon variant="subtle" aria-label={`Move question ${n} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
              ↓
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove question ${n}`} onClick={onRemove}>
              ×
            </ActionIcon>
          </Group>
        </Group>
        <Group align="start" gap="xs" wrap="wrap">
          <Autocomplete
            label="Said by"
            description="Only this speaker's words count"
            placeholder="anyone"
            w={170}
            data={speakers}
            value={q.speaker ?? ''}
            onChange={(speaker) => change({ speaker: speaker.trim() })}
            aria-label={`Question ${n}: said by`}
            {...(unnamed ? { error: `No transcription scenario names a speaker “${q.speaker}” (they name ${namedSpeakers.join(', ')})` } : {})}
          />
          <NumberInput
            label="Within the first"
            description="Seconds of the call"
            placeholder="whole call"
            w={150}
            min={1}
            max={86_400}
            allowDecimal={false}
            value={q.within_seconds ?? ''}
            onChange={(value) => change({ within_seconds: typeof value === 'number' && value > 0 ? value : 0 })}
            aria-label={`Question ${n}: within the first seconds`}
          />
          {q.type === 'boolean' && (
            <TagsInput
              label="Yes when one of these phrases is said"
              description="Answered without a model; Enter after each phrase. Empty: the engine answers (the basic engine marks a yes from the question's words alone uncertain)"
              placeholder="e.g. thank you for calling"
              flex={1}
              miw={260}
              maxTags={50}
              value={q.phrases ?? []}
              onChange={(phrases) => change({ phrases })}
              aria-label={`Question ${n}: phrases`}
            />
          )}
        </Group>
        {q.type === 'boolean' && !(q.phrases && q.phrases.length > 0) && (
          <TagsInput
            label="Sentences that mean yes"
            description="Examples from your calls, read beside the question by the engine; Enter after each"
            placeholder="e.g. I have refunded the full amount"
            maxTags={10}
            splitChars={[]}
            value={q.examples ?? []}
            onChange={(examples) => change({ examples })}
            aria-label={`Question ${n}: sentences that mean yes`}
          />
        )}
      </Stack>
    </Paper>
  );
}

/** How an answer's scope reads under its question ("said by agent · first 15 s · by phrase"). */
export function scopeLabel(scope: { speaker?: string | undefined; within_seconds?: number | undefined; method?: string | undefined; phrases?: string[] | undefined }): string {
  return [
    scope.speaker ? `said by ${scope.speaker}` : null,
    scope.within_seconds ? `first ${scope.within_seconds} s` : null,
    scope.method === 'phrases' || (scope.phrases && scope.phrases.length > 0) ? 'by phrase, no model' : null,
  ]
    .filter(Boolean)
    .join(' · ');
}
