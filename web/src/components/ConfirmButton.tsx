// A button for what cannot be undone (remove a person, revoke a key, delete a scenario): it asks
// first, saying what will happen, and acts only on the second, explicit click.
import { Button, Group, Modal, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface Props extends Omit<ButtonProps, 'children' | 'onClick'> {
  children: ReactNode;
  /** The dialog's title, a question ("Remove ana@example.com?"). */
  title: string;
  /** What happens, in a sentence. */
  consequence: string;
  /** The confirming button's label ("Remove"). */
  confirm: string;
  onConfirm: () => void;
  'aria-label'?: string;
}

export function ConfirmButton({ children, title, consequence, confirm, onConfirm, ...button }: Props) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button color="red" variant="subtle" {...button} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
        <Text size="sm">{consequence}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              close();
              onConfirm();
            }}
          >
            {confirm}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
