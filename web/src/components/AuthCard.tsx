// The frame of the sign-in and sign-up pages.
import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420} component="main">
        <Stack gap="lg">
          <Stack gap={4}>
            <Anchor href="/" underline="never" fw={700} fz="xl" c="blue.8">
              Hark
            </Anchor>
            <Title order={1} fz="h2">
              {title}
            </Title>
          </Stack>
          {children}
          <Text size="sm" c="dimmed">
            {footer}
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
