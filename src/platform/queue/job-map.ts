// Every job Hark queues, by name, with its payload: jobs are sent only through this map, so a
// name and its payload cannot drift apart, and a handler receives exactly what its senders send.
// Payloads are ids, never audio.

export interface JobPayloads {
  'prepare-audio': { recordingId: string };
  'download-audio': { recordingId: string };
  'remove-audio': { workspaceId: string; recordingId: string };
  'expire-audio': Record<string, never>;
  'deliver-webhook': {
    webhookId: string;
    eventId: string;
    attempt: number;
    /** A manual redelivery is one attempt, never retried. */
    manual?: boolean;
  };
  transcribe: { runId: string };
  analyze: { runId: string };
  'recover-runs': Record<string, never>;
  /** A new transcript sorted by categories that ask what was meant (its vectors made outside any transaction). */
  categorize: { transcriptId: string };
}

export type JobName = keyof JobPayloads;
