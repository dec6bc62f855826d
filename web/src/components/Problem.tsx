// An API error shown where the work was refused: its title and detail, and each field's message.
import { Alert, List } from '@mantine/core';
import { ApiError } from '../api/client.ts';

export function ProblemAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const problem = error instanceof ApiError ? error.problem : null;
  return (
    <Alert color="red" title={title ?? problem?.title ?? 'Something went wrong'} role="alert">
      {problem ? problem.detail : 'Please try again.'}
      {problem?.errors && problem.errors.length > 0 && (
        <List size="sm" mt="xs">
          {problem.errors.map((e) => (
            <List.Item key={e.path}>
              {e.path}: {e.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

export const problemMessage = (error: unknown): string => (error instanceof ApiError ? error.problem.detail : 'Something went wrong. Please try again.');
