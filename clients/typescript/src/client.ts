// The Hark client: one object from a base URL and an API key; every operation as a method (from
// operations.ts), with a time limit, retries with backoff and jitter on network errors, 429 and
// 5xx (for idempotent requests and POSTs with an idempotency key), typed errors, and helpers to
// upload from a path, wait for work, and walk every page of a list.
import { randomUUID } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { APIError, ConnectionError, errorFor, HarkError, WaitError, type Problem } from './errors.ts';
import { Operations, type Transport } from './operations.ts';
import type { RequestOptions, Schemas } from './types.ts';

export const VERSION = '0.1.0';

export interface HarkOptions {
  /** Default HARK_URL, else http://127.0.0.1:8080. */
  baseUrl?: string;
  /** Default HARK_API_KEY. */
  apiKey?: string;
  /** Per request, in milliseconds (default 60 s). */
  timeoutMs?: number;
  /** Attempts after the first for retryable failures (default 3). */
  maxRetries?: number;
  /** For tests and proxies. */
  fetch?: typeof fetch;
}

export interface WaitOptions {
  /** Give up after this long, in milliseconds (default 10 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** Exponential backoff with full jitter, capped. */
export const backoff = (attempt: number, baseMs = 500, capMs = 8000) => Math.random() * Math.min(capMs, baseMs * 2 ** attempt);

type Transcript = Schemas['Transcript'];
type Recording = Schemas['Recording'];
type AnalysisResult = Schemas['AnalysisResult'];

/** The file at `path` as a Blob read when sent; a path that is not a readable file is named in the error. */
async function openFile(path: string): Promise<Blob> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new HarkError(`cannot upload ${path}: ${error.code === 'ENOENT' ? 'there is no such file' : error.code === 'EACCES' ? 'it cannot be read (permissions)' : error.message}`, { cause: error });
  });
  if (!info.isFile()) throw new HarkError(`cannot upload ${path}: it is not a file`);
  return openAsBlob(path);
}

export class Hark extends Operations {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly fetchImpl: typeof fetch;
  private workspace: Promise<string> | null = null;

  constructor(options: HarkOptions = {}) {
    super();
    this.baseUrl = (options.baseUrl ?? process.env.HARK_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    const apiKey = options.apiKey ?? process.env.HARK_API_KEY;
    if (!apiKey) throw new Error('an API key is needed: pass apiKey or set HARK_API_KEY');
    this.apiKey = apiKey;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.fetchImpl = options.fetch ?? fetch;
  }

  protected transport(): Transport {
    return { call: (method, path, args, options) => this.call(method, path, args, options) };
  }

  /** The key's workspace, asked once. */
  workspaceId(): Promise<string> {
    return (this.workspace ??= this.request('GET', '/api/v1/workspaces', {}).then((answer) => {
      const id = (answer as { data: { id: string }[] }).data[0]?.id;
      if (!id) throw new Error('the API key has no workspace');
      return id;
    }));
  }

  private async call(method: string, template: string, args: { path?: object; query?: object; body?: unknown }, options: RequestOptions = {}): Promise<unknown> {
    const params: Record<string, unknown> = { ...(args.path ?? {}) };
    if (template.includes('{workspace_id}') && params.workspace_id === undefined) params.workspace_id = await this.workspaceId();
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new Error(`${name} is needed for ${method} ${template}`);
      return encodeURIComponent(String(params[name]));
    });
    return this.request(method, path, { query: args.query, body: args.body }, options);
  }

  /** One HTTP request with the client's retries; answers JSON, text, or null for 204. */
  async request(method: string, path: string, { query, body }: { query?: object; body?: unknown }, options: RequestOptions = {}): Promise<unknown> {
    const url = new URL(path, `${this.baseUrl}/`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, 'user-agent': `hark-typescript/${VERSION} node/${process.versions.node}`, accept: 'application/json', ...options.headers };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    // A POST is retried only when it carries an idempotency key (in a header or its body).
    const retryable = method !== 'POST' || Boolean(options.idempotencyKey) || Boolean(body && typeof body === 'object' && 'idempotency_key' in (body as object));

    for (let attempt = 0; ; attempt++) {
      const limit = AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, limit]) : limit;
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method, headers, body: payload, signal });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (retryable && attempt < this.maxRetries) {
          await sleep(backoff(attempt), options.signal);
          continue;
        }
        throw new ConnectionError(`${method} ${url.pathname}: no answer from ${url.host} (${(error as Error).message})`, { cause: error });
      }
      if (response.ok) {
        if (response.status === 204) return null;
        const type = response.headers.get('content-type') ?? '';
        return type.includes('json') ? response.json() : response.text();
      }
      const problem = (await response.json().catch(() => ({}))) as Problem;
      const error = errorFor(response.status, problem, response.headers.get('x-request-id'));
      if (retryable && attempt < this.maxRetries && (response.status === 429 || response.status >= 500)) {
        const after = Number(response.headers.get('retry-after'));
        await sleep(Number.isFinite(after) && after > 0 ? Math.min(after, 60) * 1000 : backoff(attempt), options.signal);
        continue;
      }
      throw error;
    }
  }

  // ---- helpers ----

  /** Uploads a file from a path (streamed from disk, never read whole) or a Blob. */
  async upload(file: string | Blob, options: { filename?: string; metadata?: Record<string, unknown>; retentionDays?: number; recordedAt?: string | Date; workspaceId?: string } = {}): Promise<Recording> {
    const blob = typeof file === 'string' ? await openFile(file) : file;
    const form = new FormData();
    if (options.metadata) form.append('metadata', JSON.stringify(options.metadata));
    if (options.retentionDays !== undefined) form.append('retention_days', String(options.retentionDays));
    if (options.recordedAt !== undefined) form.append('recorded_at', options.recordedAt instanceof Date ? options.recordedAt.toISOString() : options.recordedAt);
    form.append('file', blob, options.filename ?? (typeof file === 'string' ? basename(file) : 'audio'));
    return this.uploadRecording({ path: options.workspaceId ? { workspace_id: options.workspaceId } : {}, body: form }) as Promise<Recording>;
  }

  /** Polls with a capped backoff until `check` gives a value. */
  private async until<T>(what: string, check: () => Promise<T | null>, options: WaitOptions = {}): Promise<T> {
    const deadline = Date.now() + (options.timeoutMs ?? 600_000);
    for (let attempt = 0; ; attempt++) {
      const value = await check();
      if (value !== null) return value;
      if (Date.now() > deadline) throw new WaitError(`gave up waiting for ${what}`);
      await sleep(Math.min(5000, 250 * 1.5 ** attempt), options.signal);
    }
  }

  /** Waits until a recording is prepared (completed); a failed one throws WaitError. */
  waitForRecording(recordingId: string, options: WaitOptions = {}): Promise<Recording> {
    return this.until(`recording ${recordingId}`, async () => {
      const recording = (await this.getRecording({ path: { recording_id: recordingId } })) as Recording;
      if (recording.status === 'completed') return recording;
      if (recording.status === 'failed' || recording.status === 'download_failed') throw new WaitError(`recording ${recordingId} ${recording.status}: ${recording.error_code ?? ''} ${recording.error_message ?? ''}`.trim());
      return null;
    }, options);
  }

  /** Waits for a transcription run and returns its transcript. */
  async waitForTranscript(runId: string, options: WaitOptions = {}): Promise<Transcript> {
    await this.until(`transcription run ${runId}`, async () => {
      const run = (await this.getTranscriptionRun({ path: { run_id: runId } })) as Schemas['TranscriptionRun'];
      if (run.status === 'completed') return run;
      if (run.status === 'failed' || run.status === 'cancelled') throw new WaitError(`transcription run ${runId} ${run.status}: ${run.error_code ?? ''} ${run.error_message ?? ''}`.trim());
      return null;
    }, options);
    return this.getRunTranscript({ path: { run_id: runId } }) as Promise<Transcript>;
  }

  /** Waits for an analysis run and returns its result. */
  async waitForAnalysis(runId: string, options: WaitOptions = {}): Promise<AnalysisResult> {
    const run = await this.until(`analysis run ${runId}`, async () => {
      const current = (await this.getAnalysisRun({ path: { run_id: runId } })) as Schemas['AnalysisRun'];
      if (current.status === 'completed') return current;
      if (current.status === 'failed' || current.status === 'cancelled') throw new WaitError(`analysis run ${runId} ${current.status}: ${current.error_code ?? ''} ${current.error_message ?? ''}`.trim());
      return null;
    }, options);
    return this.getAnalysisResult({ path: { recording_id: run.recording_id, run_id: runId } }) as Promise<AnalysisResult>;
  }

  /**
   * Uploads (or takes) a recording and waits for its transcript. Without a scenario named, the run
   * the recording already has (the one an automatic scenario started on upload) is waited for, so
   * a call is never transcribed twice; a new run on the default scenario is started only when it
   * has none (or its newest failed or was cancelled). With a scenario named, a run on it is started.
   */
  async transcribe(recording: string | Blob | { id: string }, options: WaitOptions & { scenarioId?: string; metadata?: Record<string, unknown> } = {}): Promise<Transcript> {
    const id = typeof recording === 'object' && 'id' in recording ? recording.id : (await this.upload(recording, { metadata: options.metadata })).id;
    await this.waitForRecording(id, options);
    let runId: string | undefined;
    if (!options.scenarioId) {
      // Newest first: an automatic run exists as soon as the recording is prepared.
      const newest = ((await this.listTranscriptionRuns({ query: { recording_id: id, limit: 1 } })) as { data: Schemas['TranscriptionRun'][] }).data[0];
      if (newest && newest.status !== 'failed' && newest.status !== 'cancelled') runId = newest.id;
    }
    runId ??= ((await this.createTranscriptionRun({ path: { recording_id: id }, body: options.scenarioId ? { transcription_scenario_id: options.scenarioId } : {} })) as Schemas['TranscriptionRun']).id;
    return this.waitForTranscript(runId, options);
  }

  /** Every item of a list, following next_cursor page after page. */
  async *paginate<T>(list: (args: never) => Promise<unknown>, query: Record<string, unknown> = {}): AsyncGenerator<T> {
    const call = list as (args: { query: Record<string, unknown> }) => Promise<unknown>;
    let cursor: string | null = null;
    do {
      const page = (await call.call(this, { query: { ...query, ...(cursor ? { cursor } : {}) } })) as { data: T[]; next_cursor?: string | null };
      yield* page.data;
      cursor = page.next_cursor ?? null;
    } while (cursor);
  }

  /** Starts an execution; without an idempotency key one is made, so a retried call never starts the work twice. */
  execute(kind: 'transcription' | 'analysis', scenarioId: string, options: { recordingIds?: string[]; idempotencyKey?: string } = {}): Promise<Schemas['Execution']> {
    const body = { idempotency_key: options.idempotencyKey ?? randomUUID(), ...(options.recordingIds ? { recording_ids: options.recordingIds } : {}) };
    const args = { path: { scenario_id: scenarioId }, body };
    return (kind === 'transcription' ? this.createTranscriptionExecution(args) : this.createAnalysisExecution(args)) as Promise<Schemas['Execution']>;
  }
}

export { APIError };
