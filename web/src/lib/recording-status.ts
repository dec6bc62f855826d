// A recording's statuses, from the OpenAPI types: the list below must name each status the API
// has (the check fails to compile otherwise), and the groups the pages use are read from it.
import type { Schemas } from '../api/client.ts';

export type RecordingStatus = Schemas['Recording']['status'];

export const recordingStatuses = ['queued', 'processing', 'completed', 'failed', 'download_pending', 'downloading', 'download_retry_wait', 'download_failed'] as const satisfies readonly RecordingStatus[];

// Every status of the API is in the list: a new one breaks the build until it is placed.
type Unlisted = Exclude<RecordingStatus, (typeof recordingStatuses)[number]>;
const everyStatusListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyStatusListed;

/** The audio is on its way (an import downloading, a preparation waiting or running). */
export const preparingStatuses: ReadonlySet<RecordingStatus> = new Set(['queued', 'processing', 'download_pending', 'downloading', 'download_retry_wait']);

/** No audio to play: preparation or download failed for good. */
export const failedStatuses: ReadonlySet<RecordingStatus> = new Set(['failed', 'download_failed']);

/** Each status in a person's words (the reports' counts by status). */
export const recordingStatusLabels: Record<RecordingStatus, string> = {
  queued: 'waiting to be prepared',
  processing: 'being prepared',
  completed: 'audio ready',
  failed: 'failed to prepare',
  download_pending: 'waiting to download',
  downloading: 'downloading',
  download_retry_wait: 'download retrying',
  download_failed: 'download failed',
};
