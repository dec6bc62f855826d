// One analysis result: the summary, every question with its typed answer (marked uncertain when
// its confidence is low), the passages behind it and, apart, those that only resemble it; each
// passage a link that plays the audio from there. Where the result can be taught, a passage of a
// yes/no answer that is not a sure yes can be marked "Means yes": it becomes one of the question's
// examples. Where a writer can review the result, each answer can be marked right or wrong.
import { Anchor, Badge, Button, Card, Group, List, Stack, Text } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import type { Schemas } from '../api/client.ts';
import { asExample, sameSentence } from '../lib/examples.ts';
import { passageAround } from '../lib/phrase-context.ts';
import { formatTime } from '../lib/transcript-sync.ts';
import { scopeLabel } from './QuestionEditor.tsx';
import { formatDateTime } from '../lib/dates.ts';
import { phrasesNotSaidNote, speakerNotFoundNote } from '../lib/answer-notes.ts';
import { AnswerReview, type Reviewing } from './AnswerReview.tsx';

/** Teaching a result's questions from its passages. */
export interface Teaching {
  /** The examples a yes/no question of the scenario has now, or null where it takes no more (a phrase rule, a question since removed, ten already). */
  examplesOf: (questionId: string) => string[] | null;
  /** Adds `sentence` to the question's examples. */
  teach: (questionId: string, sentence: string) => void;
  busy: boolean;
}

/** "Means yes" for an answer's passages: on a yes/no answer that is not a sure yes, where the question takes examples. */
function meansYesOf(answer: Schemas['AnalysisResult']['answers'][number], teaching: Teaching | undefined): MeansYes | undefined {
  if (!teaching || answer.type !== 'boolean' || (answer.answer === true && !answer.uncertain)) return undefined;
  const examples = teaching.examplesOf(answer.question_id);
  if (examples === null) return undefined;
  return { taught: (sentence) => examples.some((e) => sameSentence(e, sentence)), teach: (sentence) => teaching.teach(answer.question_id, sentence), busy: teaching.busy };
}

export function AnalysisResultCard({
  result,
  scenarioName,
  onSeek,
  teaching,
  reviewing,
  earlierTranscript = false,
  oneChannel = false,
  segments,
}: {
  result: Schemas['AnalysisResult'];
  scenarioName: string;
  onSeek: (seconds: number) => void;
  teaching?: Teaching | undefined;
  reviewing?: Reviewing | undefined;
  earlierTranscript?: boolean;
  /** The call is one channel: a speaker it does not name cannot be told apart by naming channels. */
  oneChannel?: boolean;
  /** The segments of the transcript the result read, where the page has it: a phrase found is shown in its turn. */
  segments?: readonly { start: number; end: number; text: string }[] | undefined;
}) {
  return (
    <Card withBorder radius="md" data-result={result.analysis_run_id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{scenarioName}</Text>
          <Text size="xs" c="dimmed">
            {result.engine === 'basic' ? 'basic engine (no language model)' : `${result.engine} · ${result.model}`} · {formatDateTime(result.created_at)}
          </Text>
        </Group>
        {earlierTranscript && (
          <Group gap="xs" wrap="nowrap" align="flex-start" data-earlier-transcript="true">
            <Badge color="yellow" variant="light" style={{ flexShrink: 0 }}>
              Earlier transcript
            </Badge>
            <Text size="sm">Answered on an earlier transcript of this call: its passages may differ from the transcript shown. Analyse again to answer this one.</Text>
          </Group>
        )}
        {result.summary && (
          // Labelled, and apart from the answers: it is the call told short, not evidence for one.
          <Text size="sm" data-summary>
            <Text span size="xs" fw={600} c="dimmed" tt="uppercase" mr={6}>
              Summary
            </Text>
            {result.summary}
          </Text>
        )}
        {result.answers.map((answer) => {
          const meansYes = meansYesOf(answer, teaching);
          // What counts: a person's review where there is one, else the engine's answer.
          const counted = answer.review ? answer.review.answer : answer.answer;
          // How the engine answered says nothing of a person's answer: a reviewed one keeps its scope only.
          const scope = scopeLabel(answer.review ? { ...answer, method: undefined } : answer);
          return (
          <Stack key={answer.question_id} gap={4} data-question={answer.question_id}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {answer.type === 'boolean' ? (
                <Badge color={counted === true ? 'green' : 'red'} miw={46} data-answer={String(counted)} styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                  {counted === true ? 'Yes' : 'No'}
                </Badge>
              ) : (
                <Badge color="gray" variant="light" miw={46} styles={{ root: { flexShrink: 0 }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
                  Text
                </Badge>
              )}
              {answer.uncertain && !answer.review && (
                <Badge color="yellow" variant="light" title={`Confidence ${Math.round(answer.confidence * 100)} %: listen before relying on it`} data-uncertain="true" style={{ flexShrink: 0 }}>
                  Uncertain
                </Badge>
              )}
              <Stack gap={2}>
                <Text size="sm" fw={500}>
                  {answer.question}
                </Text>
                {scope && (
                  <Text size="xs" c="dimmed" data-scope>
                    {scope}
                  </Text>
                )}
                {answer.speaker_not_found !== undefined && (
                  <Text size="xs" data-speaker-not-found={answer.speaker_not_found}>
                    {speakerNotFoundNote(answer.speaker_not_found, earlierTranscript, oneChannel)}
                  </Text>
                )}
                {/* A rule's No shows no passage: say what it looked for. */}
                {answer.method === 'phrases' && answer.answer === false && answer.phrases && answer.phrases.length > 0 && (
                  <Text size="xs" c="dimmed" data-phrases-not-said>
                    {phrasesNotSaidNote(answer.phrases)}
                  </Text>
                )}
                {answer.type === 'text' && (
                  <Text size="sm" data-answer="text" style={{ overflowWrap: 'anywhere' }}>
                    {String(counted) || '—'}
                  </Text>
                )}
              </Stack>
            </Group>
            <Passages passages={answer.evidence} label={`Evidence for: ${answer.question}`} onSeek={onSeek} meansYes={meansYes} turns={answer.method === 'phrases' ? segments : undefined} />
            {answer.related && answer.related.length > 0 && (
              <>
                <Text size="xs" ml="xl" c="dimmed">
                  Close, but not enough to answer:
                </Text>
                <Passages passages={answer.related} label={`Related passages for: ${answer.question}`} onSeek={onSeek} meansYes={meansYes} />
              </>
            )}
            {/* After the passages: what was heard, then whether the answer is right. */}
            <AnswerReview key={answer.review ? JSON.stringify([answer.review.reviewed_at, answer.review.answer, answer.review.note]) : 'unreviewed'} answer={answer} reviewing={reviewing} />
          </Stack>
          );
        })}
      </Stack>
    </Card>
  );
}

interface MeansYes {
  taught: (sentence: string) => boolean;
  teach: (sentence: string) => void;
  busy: boolean;
}

/** A passage as said: in its turn, the words found marked, where the turn is known; else the words alone. */
function inTurn(passage: { text: string; start: number; source?: string | undefined }, turns: readonly { start: number; end: number; text: string }[] | undefined): ReactNode {
  const parts = turns && passage.source !== 'audio' ? passageAround(passage.text, passage.start, turns) : null;
  if (!parts) return passage.text;
  return (
    <>
      {parts.before}
      <mark data-found>{parts.found}</mark>
      {parts.after}
    </>
  );
}

/** Transcript passages, each a link that plays the audio from its start; with `meansYes`, each whole one can be taught as meaning yes. */
function Passages({
  passages,
  label,
  onSeek,
  meansYes,
  turns,
}: {
  passages: { text: string; start: number; source?: string | undefined }[];
  label: string;
  onSeek: (seconds: number) => void;
  meansYes?: MeansYes | undefined;
  /** Where given (a phrase rule's words found), each passage is shown in the turn it was said in, the words found marked. */
  turns?: readonly { start: number; end: number; text: string }[] | undefined;
}) {
  const id = useId();
  if (passages.length === 0) return null;
  return (
    <List size="xs" ml="xl" spacing={2} aria-label={label}>
      {passages.map((e, i) => {
        const example = meansYes ? asExample(e.text) : null;
        return (
          <List.Item key={i}>
            <Anchor component="button" type="button" size="xs" onClick={() => onSeek(e.start)} data-evidence={e.start}>
              {formatTime(e.start)}
            </Anchor>{' '}
            <Text span size="xs" c="dimmed" id={`${id}-${i}`}>
              “{inTurn(e, turns)}”
            </Text>
            {/* A phrase spotting heard in the audio, where the transcript's words garble it. */}
            {e.source === 'audio' && (
              <Text span size="xs" c="dimmed" ml={6} data-source="audio">
                (heard in the audio)
              </Text>
            )}
            {meansYes &&
              example !== null &&
              (meansYes.taught(example) ? (
                <Text span size="xs" c="teal.8" ml={6} data-taught>
                  an example of yes
                </Text>
              ) : (
                <Button variant="subtle" size="xs" h={24} px={6} ml={4} disabled={meansYes.busy} onClick={() => meansYes.teach(example)} aria-describedby={`${id}-${i}`} title="Add this sentence to the question's examples, and analyse the call again">
                  Means yes
                </Button>
              ))}
          </List.Item>
        );
      })}
    </List>
  );
}
