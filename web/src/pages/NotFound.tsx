import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../components/PageTitle.ts';

export default function NotFound() {
  usePageTitle('Not found');
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>Page not found</Title>
        <Text>There is no page at this address.</Text>
        <Button component={Link} to="/" w="fit-content">
          Go to the start page
        </Button>
      </Stack>
    </Container>
  );
}
