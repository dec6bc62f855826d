// What a page shows when it cannot load: the problem's words, never a stack.
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { ApiError } from '../api/client.ts';

export function RouteError() {
  const error = useRouteError();
  const message = error instanceof ApiError ? error.problem.detail : 'This page could not be loaded. Reload to try again.';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>Something went wrong</Title>
        <Text>{message}</Text>
        <Button component="a" href="/" w="fit-content">
          Go to the start page
        </Button>
      </Stack>
    </Container>
  );
}
