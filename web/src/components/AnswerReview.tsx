// A person's review of one answer: after a listen, "Right" keeps the engine's answer and "Wrong"
// gives the other one (a yes/no question) or the right text (or that the call does not say it); reports and the answer table then
// count the reviewer's answer. A reviewed answer says so, with what the engine said where it was
// overturned and the reviewer's note (added or edited after), and the review can be undone.
import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../api/client.ts';
import { queries } from '../api/queries.ts';
import { formatDateTime } from '../lib/dates.ts';
import { reviewLine, shownAnswer as shown } from '../lib/answer-notes.ts';
import { useWorkspace } from './WorkspaceLayout.tsx';

type Answer = Schemas['AnalysisResult']['answers'][number];

/** Reviewing a result's answers. */
export interface Reviewing {
  review: (questionId: string, answer: boolean | string, note?: string) => void;
  undo: (questionId: string) => void;
  busy: boolean;
}


/**
 * What a reviewed answer says of its review; with `reviewing`, the buttons to review it, note why,
 * or undo the review. Keyed by its review (AnalysisResultCard), so a review made, changed or undone
 * starts it afresh: no form left open with what was typed before.
 */
export function AnswerReview({ answer, reviewing }: { answer: Answer; reviewing: Reviewing | undefined }) {
  // The reviewer by name: the workspace's members (the API gives their account id only).
  const members = useQuery({ ...queries.members(useWorkspace().id), enabled: answer.review?.reviewed_by.account_id != null, staleTime: 5 * 60_000 });
  const [correcting, setCorrecting] = useState(false);
  const [noting, setNoting] = useState(false);
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const review = answer.review;
  if (review) {
    const who = members.data?.data.find((m) => m.account_id === review.reviewed_by.account_id)?.email ?? 'A person';
    // The form stays open until the review comes back changed (and this one is drawn afresh).
    const saveNote = () => reviewing?.review(answer.question_id, review.answer, note.trim());
    return (
      <Stack gap={4} ml="xl" data-reviewed={review.agrees ? 'agreed' : 'overturned'}>
        <Group gap="xs">
          <Badge color="teal" variant="light">
            {review.agrees ? 'Reviewed' : 'Corrected'}
          </Badge>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {reviewLine(who, review, answer.answer)} · {formatDateTime(review.reviewed_at)}
          </Text>
        </Group>
        {review.note && (
          <Text size="xs" style={{ overflowWrap: 'anywhere' }} data-review-note>
            Note: {review.note}
          </Text>
        )}
        {reviewing &&
          (noting ? (
            <Group gap="xs" align="end">
              <TextInput size="xs" label="Note" value={note} onChange={(event) => setNote(event.currentTarget.value)} onKeyDown={(event) => event.key === 'Enter' && saveNote()} flex={1} miw={220} maxLength={2_000} />
              <Button size="xs" disabled={reviewing.busy} onClick={saveNote} aria-label={`Save note: ${answer.question}`}>
                Save note
              </Button>
              <Button size="xs" variant="default" onClick={() => setNoting(false)}>
                Cancel
              </Button>
            </Group>
          ) : (
            <Group gap={4}>
              <Button
                variant="subtle"
                size="xs"
                h={24}
                px={6}
                disabled={reviewing.busy}
                onClick={() => {
                  setNote(review.note ?? '');
                  setNoting(true);
                }}
                aria-label={`${review.note ? 'Edit note' : 'Add a note'}: ${answer.question}`}
              >
                {review.note ? 'Edit note' : 'Add a note'}
              </Button>
              <Button variant="subtle" size="xs" h={24} px={6} disabled={reviewing.busy} onClick={() => reviewing.undo(answer.question_id)} title="Count the engine's answer again" aria-label={`Undo review: ${answer.question}`}>
                Undo review
              </Button>
            </Group>
          ))}
      </Stack>
    );
  }
  if (!reviewing) return null;
  if (correcting) {
    const save = () => text.trim() && reviewing.review(answer.question_id, text.trim(), note.trim() || undefined);
    return (
      <Stack gap={4} ml="xl">
        <TextInput size="xs" label="The right answer" value={text} onChange={(event) => setText(event.currentTarget.value)} onKeyDown={(event) => event.key === 'Enter' && save()} maxLength={1_000} />
        <TextInput size="xs" label="Note (optional)" value={note} onChange={(event) => setNote(event.currentTarget.value)} onKeyDown={(event) => event.key === 'Enter' && save()} maxLength={2_000} />
        <Group gap="xs">
          <Button size="xs" disabled={reviewing.busy || !text.trim()} onClick={save}>
            Save
          </Button>
          <Button size="xs" variant="default" disabled={reviewing.busy} onClick={() => reviewing.review(answer.question_id, '', note.trim() || undefined)} title="The call does not answer this question">
            Not said in the call
          </Button>
          <Button size="xs" variant="default" onClick={() => setCorrecting(false)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    );
  }
  // Each button's name is its visible text, then the question it is about.
  const wrong = typeof answer.answer === 'boolean' ? `Wrong, it is ${shown(!answer.answer)}` : 'Wrong…';
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
