// Where a call stands in the pipeline (the recording card's `pipeline`): its states, and what a
// recording's own state says before any run is read. The SQL that reads the runs is
// core/recordings/pipeline-status.ts.

import { failedRecordingStatuses, type RecordingStatus } from '../../platform/db/tables.ts';

export const pipelineStatuses = ['preparing', 'audio_ready', 'transcribing', 'transcribed', 'analysing', 'analysed', 'failed'] as const;
export type PipelineStatus = (typeof pipelineStatuses)[number];

export interface Pipeline {
  status: PipelineStatus;
  /** Why it failed: the preparation's or the latest run's error. */
  error_code: string | null;
  error_message: string | null;
  /** Transcribing or analysing, its run still queued for a worker. */
  waiting: boolean;
}

/** What a recording's own state says when its runs are not read (a card just created: it has none). */
export function pipelineOfNew(status: RecordingStatus, errorCode: string | null, errorMessage: string | null): Pipeline {
  if (failedRecordingStatuses.includes(status)) return { status: 'failed', error_code: errorCode, error_message: errorMessage, waiting: false };
  return { status: status === 'completed' ? 'audio_ready' : 'preparing', error_code: null, error_message: null, waiting: false };
}
