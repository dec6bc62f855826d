// An API error shown where the work was refused: its title and detail, and each field's message.
import { Alert, List } from '@mantine/core';
import { ApiError } from '../api/client.ts';
import { fieldMessage } from '../lib/field-messages.ts';

export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const problem = error instanceof ApiError ? error.problem : null;
  const heading = title ?? problem?.title ?? 'Something went wrong';
  const fields = problem?.errors ?? [];
  // Said once: a detail that only repeats the title or the fields' messages is left out.
  const detail = !problem ? 'Please try again.' : problem.detail === heading || fields.some((e) => problem.detail.includes(e.message)) ? null : problem.detail;
  return (
    <Alert color="red" title={heading} role="alert">
      {detail}
      {fields.length > 0 && (
        <List size="sm" mt="xs">
          {fields.map((e) => (
            <List.Item key={e.path}>{fieldMessage(e)}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** The problem in a sentence: its fields' messages in words where it has them, else its detail. */
export const problemMessage = (error: unknown): string => {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  const fields = error.problem.errors ?? [];
  return fields.length > 0 ? fields.map(fieldMessage).join('; ') : error.problem.detail;
};
