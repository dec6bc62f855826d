// A person's review of one answer: after a listen, "Right" keeps the engine's answer and "Wrong"
// gives the other one (a yes/no question) or the right text; reports and the answer table then
// count the reviewer's answer. A reviewed answer says so, with what the engine said where it was
// overturned, and the review can be undone.
import { Badge, Button, Group, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../api/client.ts';
import { formatDateTime } from '../lib/dates.ts';

type Answer = Schemas['AnalysisResult']['answers'][number];

/** Reviewing a result's answers. */
export interface Reviewing {
  review: (questionId: string, answer: boolean | string) => void;
  undo: (questionId: string) => void;
  busy: boolean;
}

const shown = (answer: boolean | string) => (answer === true ? 'Yes' : answer === false ? 'No' : `“${answer}”`);

/** What a reviewed answer says of its review; with `reviewing`, the buttons to review it or undo the review. */
export function AnswerReview({ answer, reviewing }: { answer: Answer; reviewing: Reviewing | undefined }) {
  const [correcting, setCorrecting] = useState(false);
  const [text, setText] = useState(typeof answer.answer === 'string' ? answer.answer : '');
  const review = answer.review;
  if (review) {
    return (
      <Group gap="xs" ml="xl" data-reviewed={String(review.agrees ? 'agreed' : 'overturned')}>
        <Badge color="teal" variant="light" title={`Reviewed ${formatDateTime(review.reviewed_at)}`}>
          Reviewed
        </Badge>
        <Text size="xs" c="dimmed">
          {review.agrees ? 'A person agreed with this answer.' : `A person corrected it; the engine said ${shown(answer.answer)}.`}
          {review.note ? ` Note: ${review.note}` : ''}
        </Text>
        {reviewing && (
          <Button variant="subtle" size="xs" h={24} px={6} disabled={reviewing.busy} onClick={() => reviewing.undo(answer.question_id)} title="Count the engine's answer again">
            Undo review
          </Button>
        )}
      </Group>
    );
  }
  if (!reviewing) return null;
  // Each button's name is its visible text, then the question it is about.
  const wrong = typeof answer.answer === 'boolean' ? `Wrong, it is ${shown(!answer.answer)}` : 'Wrong…';
  if (correcting) {
    const save = () => text.trim() && reviewing.review(answer.question_id, text.trim());
    return (
      <Group gap="xs" ml="xl" align="end" wrap="nowrap">
        <TextInput size="xs" label="The right answer" value={text} onChange={(event) => setText(event.currentTarget.value)} onKeyDown={(event) => event.key === 'Enter' && save()} flex={1} maxLength={10_000} />
        <Button size="xs" disabled={reviewing.busy || !text.trim()} onClick={save}>
          Save
        </Button>
        <Button size="xs" variant="default" onClick={() => setCorrecting(false)}>
          Cancel
        </Button>
      </Group>
    );
  }
  return (
    <Group gap={4} ml="xl" data-review-buttons>
      <Text size="xs" c="dimmed">
        After a listen:
      </Text>
      <Button variant="subtle" size="xs" h={24} px={6} disabled={reviewing.busy} onClick={() => reviewing.review(answer.question_id, answer.answer)} aria-label={`Right: ${answer.question}`} title="Count this answer as checked by a person">
        Right
      </Button>
      <Button
        variant="subtle"
        color="red"
        size="xs"
        h={24}
        px={6}
        disabled={reviewing.busy}
        onClick={() => (typeof answer.answer === 'boolean' ? reviewing.review(answer.question_id, !answer.answer) : setCorrecting(true))}
        aria-label={`${wrong}: ${answer.question}`}
        title={typeof answer.answer === 'boolean' ? `Count it as ${shown(!answer.answer)} instead` : 'Give the right answer'}
      >
        {wrong}
      </Button>
    </Group>
  );
}
