// Asked when a person leaves a scenario with changes not saved: stay (and save), or leave them.
import { Button, Group, Modal, Text } from '@mantine/core';
import type { Blocker } from 'react-router';

export function LeaveUnsaved({ blocker }: { blocker: Blocker }) {
  const asking = blocker.state === 'blocked';
  return (
    <Modal opened={asking} onClose={() => blocker.reset?.()} closeButtonProps={{ 'aria-label': 'Close' }} title="Leave without saving?">
      <Text size="sm">Your changes to this scenario are not saved.</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
        <Button onClick={() => blocker.reset?.()} data-autofocus>
          Stay
        </Button>
      </Group>
    </Modal>
  );
}
