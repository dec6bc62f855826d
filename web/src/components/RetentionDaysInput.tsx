// How long a new recording's audio is kept, as the upload and the import ask it: the default it
// gets when left empty and the server's range said, and a number out of that range said before
// anything is sent.
import { NumberInput } from '@mantine/core';
import { useWorkspace } from './WorkspaceLayout.tsx';

/** The error of a retention typed, or null when it is empty or within the range. */
export function retentionError(value: number | string, range: { min_days: number; max_days: number }): string | null {
  if (value === '') return null;
  const days = Number(value);
  return Number.isInteger(days) && days >= range.min_days && days <= range.max_days ? null : `From ${range.min_days} to ${range.max_days} days`;
}

export function RetentionDaysInput({ value, onChange }: { value: number | string; onChange: (value: number | string) => void }) {
  const { retention } = useWorkspace();
  return (
    <NumberInput
      label="Keep the audio for (days)"
      description={`Leave empty for the workspace's default: ${retention.default_days} days`}
      min={retention.min_days}
      max={retention.max_days}
      clampBehavior="none"
      allowDecimal={false}
      value={value}
      onChange={onChange}
      error={retentionError(value, retention)}
      w={300}
    />
  );
}
