// Small HTTP helpers shared by the test files.
import fs from 'node:fs';
import path from 'node:path';
import { multipart } from './audio.ts';
import type { Hark as HarkClient } from '../../clients/typescript/src/index.ts';
import { eventually, type Account, type Hark } from './harness.ts';

export interface Card {
  id: string;
  status: string;
  duration_seconds: number | null;
  metadata: Record<string, unknown>;
  error_code: string | null;
  expires_at: string;
  retention_days: number;
  source: string;
  size_bytes: number | null;
  filename: string;
  audio_deleted_at: string | null;
  channels: number | null;
  recorded_at: string;
  recorded_at_source: string;
}

export async function upload(hark: Hark, account: Account, file: string | Buffer, options: { contentType?: string; filename?: string; fields?: Record<string, string> } = {}) {
  const content = typeof file === 'string' ? fs.readFileSync(file) : file;
  const body = multipart(options.fields ?? {}, {
    content,
    filename: options.filename ?? (typeof file === 'string' ? path.basename(file) : 'audio.wav'),
    contentType: options.contentType ?? 'audio/wav',
  });
  return hark.request({ method: 'POST', url: `/api/v1/workspaces/${account.workspaceId}/recordings`, key: account.key, ...body });
}

export async function waitForRecording(hark: Hark, account: Account, id: string, statuses: string[], timeoutMs = 60_000): Promise<Card> {
  return eventually(async () => {
    const card = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/recordings/${id}`, key: account.key })).json<Card>();
    return statuses.includes(card.status) ? card : null;
  }, timeoutMs, `recording ${id} to reach ${statuses.join('/')}`);
}


/** A transcription run as its card shows it. */
export interface Run {
  id: string;
  status: string;
  transcript_id: string | null;
  retry_of: string | null;
  attempts: number;
  error_code: string | null;
  error_message: string | null;
  retryable: boolean | null;
  execution_id: string | null;
  progress: number;
}

/** The transcription run once it reaches one of `statuses`. */
export async function waitForRun(hark: Hark, account: Account, id: string, statuses = ['completed', 'failed', 'cancelled'], timeoutMs = 120_000): Promise<Run> {
  return eventually(async () => {
    const run = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/transcription-runs/${id}`, key: account.key })).json<Run>();
    return statuses.includes(run.status) ? run : null;
  }, timeoutMs, `run ${id} to reach ${statuses.join('/')}`);
}

/** Through the shipped client: the recording once it reaches one of `statuses`. */
export function recordingReaches(client: HarkClient, id: string, statuses: string[], timeoutMs = 60_000) {
  return eventually(async () => {
    const card = await client.getRecording({ path: { recording_id: id } });
    return statuses.includes(card.status) ? card : null;
  }, timeoutMs, `recording ${id} to reach ${statuses.join('/')}`);
}

/** Through the shipped client: the transcription run once it has ended, however it ended (the client's own wait throws on a failure). */
export function transcriptionEnds(client: HarkClient, id: string, timeoutMs = 120_000) {
  return eventually(async () => {
    const run = await client.getTranscriptionRun({ path: { run_id: id } });
    return ['completed', 'failed', 'cancelled'].includes(run.status) ? run : null;
  }, timeoutMs, `transcription run ${id}`);
}
