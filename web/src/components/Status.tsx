// Status badges of recordings and runs, in one palette.
import { Badge } from '@mantine/core';

const colors: Record<string, string> = {
  completed: 'green',
  completed_with_errors: 'orange',
  running: 'blue',
  processing: 'blue',
  downloading: 'blue',
  queued: 'gray',
  download_pending: 'gray',
  failed: 'red',
  download_failed: 'red',
  cancelled: 'dark',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={colors[status] ?? 'gray'} variant="light">
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}
