// What a scenario has when it is not told otherwise: its retries and its stored selection.
export const defaultRetry = { max_attempts: 3, backoff_seconds: 5 };
export const emptySelection = { metadata: {}, statuses: ['completed'] };
