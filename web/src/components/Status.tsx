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

/** Where a call stands (the card's `pipeline`), in words a reviewer reads. */
export const pipelineLabels: Record<string, { label: string; color: string }> = {
  preparing: { label: 'Preparing audio', color: 'gray' },
  audio_ready: { label: 'Audio ready', color: 'cyan' },
  transcribing: { label: 'Transcribing', color: 'blue' },
  transcribed: { label: 'Transcribed', color: 'teal' },
  analysing: { label: 'Analysing', color: 'blue' },
  analysed: { label: 'Analysed', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
};

/** Pipeline statuses still moving: a page showing one polls. */
export const movingPipeline = new Set(['preparing', 'transcribing', 'analysing']);

/** A stage whose run still waits for a worker, as a reviewer reads it (several calls sent at once are not all being transcribed). */
const waitingLabels: Record<string, string> = { transcribing: 'Waiting to transcribe', analysing: 'Waiting to analyse' };

export function PipelineBadge({ pipeline }: { pipeline: { status: string; error_message: string | null; waiting?: boolean | undefined } }) {
  const waiting = pipeline.waiting ? waitingLabels[pipeline.status] : undefined;
  const shown = waiting ? { label: waiting, color: 'gray' } : (pipelineLabels[pipeline.status] ?? { label: pipeline.status, color: 'gray' });
  const reason = pipeline.status === 'failed' && pipeline.error_message ? pipeline.error_message : undefined;
  return (
    <Badge color={shown.color} variant="light" title={reason} styles={{ root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
      {shown.label}
      {reason ? `: ${reason.length > 40 ? `${reason.slice(0, 40)}…` : reason}` : ''}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={colors[status] ?? 'gray'} variant="light">
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}
