// Said above a scenario's form when it was saved elsewhere (another tab, "Means yes" on a
// recording) since this page's changes were started: load the saved version, or save these
// changes over it.
import { Alert, Button, Group, Text } from '@mantine/core';

export function ChangedElsewhere({ onReload, onOverwrite, saving }: { onReload: () => void; onOverwrite: () => void; saving: boolean }) {
  return (
    <Alert color="yellow" title="Saved elsewhere meanwhile" role="alert">
      <Text size="sm">This scenario was changed and saved somewhere else since you started editing it here. Your changes are not saved yet.</Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" variant="default" onClick={onReload}>
          Load the saved version
        </Button>
        <Button size="xs" color="yellow" autoContrast onClick={onOverwrite} loading={saving}>
          Save mine over it
        </Button>
      </Group>
    </Alert>
  );
}
