// A secret shown once (an API key, a webhook signing secret), with a copy button.
import { Alert, Button, Code, CopyButton, Stack, Text } from '@mantine/core';

export function SecretOnce({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  return (
    <Alert color="yellow" title={title}>
      <Stack gap="xs">
        <Text size="sm">It is shown only now: copy it somewhere safe.</Text>
        <Code block data-testid="secret" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy} w="fit-content">
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="subtle" onClick={onDone} w="fit-content">
          Done
        </Button>
      </Stack>
    </Alert>
  );
}
