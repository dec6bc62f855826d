// Prometheus metrics of one process (prom-client, a registry per process so several Harks in one
// test process stay apart): HTTP request durations by route and status, run durations by kind and
// engine, the decoders' time by phase, the pipeline's time by stage, run failures by error code, webhook delivery outcomes, and — read at each scrape — the
// runs waiting and running per kind with the age of the oldest waiting one.
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import type { QueueDepth } from '../queue/queue.ts';

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'hark_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly runDuration = new Histogram({
    name: 'hark_run_duration_seconds',
    help: 'Duration of completed runs by kind and engine',
    labelNames: ['kind', 'engine'] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  readonly runFailures = new Counter({ name: 'hark_run_failures_total', help: 'Failed runs by kind and error code', labelNames: ['kind', 'error_code'] as const, registers: [this.registry] });
  readonly decodeSeconds = new Counter({
    name: 'hark_transcription_decode_seconds_total',
    help: 'Seconds transcription engines spent in each phase (pocketsphinx: cmn, search, lattice, and spot when a scenario spots phrases), summed over pieces decoded side by side',
    labelNames: ['engine', 'phase'] as const,
    registers: [this.registry],
  });
  readonly stageSeconds = new Counter({
    name: 'hark_pipeline_seconds_total',
    help: 'Seconds spent in each stage: preparation (fetch: the original from the blob store; probe; convert: ffmpeg; store: the prepared audio and its row) and runs by kind (execute: the engine; store: the result and the completion)',
    labelNames: ['kind', 'stage'] as const,
    registers: [this.registry],
  });
  readonly realTimeFactor = new Histogram({
    name: 'hark_transcription_real_time_factor',
    help: "Time to transcribe (reading the prepared audio from the store and the engine's decode) over the audio's duration, per transcript, by engine",
    labelNames: ['engine'] as const,
    buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 5],
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({ name: 'hark_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'] as const, registers: [this.registry] });

  /** `jobs`: the queue's jobs waiting and running per queue name, read at each scrape. */
  constructor(db: Db, jobs: () => Promise<QueueDepth[]> = async () => []) {
    const jobCount = new Gauge({ name: 'hark_jobs', help: 'Queue jobs waiting (created, retry) or running (active), by queue', labelNames: ['queue', 'state'] as const, registers: [this.registry] });
    const jobOldest = new Gauge({ name: 'hark_jobs_oldest_seconds', help: 'Age of the oldest waiting job, by queue', labelNames: ['queue'] as const, registers: [this.registry] });
    const runs = new Gauge({ name: 'hark_runs', help: 'Runs waiting or running, by kind and status', labelNames: ['kind', 'status'] as const, registers: [this.registry] });
    const oldest = new Gauge({ name: 'hark_queue_oldest_seconds', help: 'Age of the oldest waiting run, by kind', labelNames: ['kind'] as const, registers: [this.registry] });
    // One query per scrape, over the waiting and running runs only.
    this.refresh = async () => {
      const { rows } = await sql<{ kind: string; status: string; count: number; oldest: number | null }>`
        SELECT 'transcription' AS kind, status, count(*)::int AS count, extract(epoch FROM now() - min(created_at))::float8 AS oldest
          FROM transcription_runs WHERE status IN ('queued', 'running') GROUP BY status
        UNION ALL
        SELECT 'analysis', status, count(*)::int, extract(epoch FROM now() - min(created_at))::float8
          FROM analysis_runs WHERE status IN ('queued', 'running') GROUP BY status`.execute(db);
      const queued = await jobs();
      jobCount.reset();
      jobOldest.reset();
      const oldestByQueue = new Map<string, number>();
      for (const row of queued) {
        jobCount.set({ queue: row.name, state: row.state }, row.count);
        if (row.oldest !== null) oldestByQueue.set(row.name, Math.max(oldestByQueue.get(row.name) ?? 0, row.oldest));
      }
      for (const [queue, seconds] of oldestByQueue) jobOldest.set({ queue }, seconds);
      runs.reset();
      oldest.reset();
      for (const kind of ['transcription', 'analysis']) {
        for (const status of ['queued', 'running']) runs.set({ kind, status }, rows.find((r) => r.kind === kind && r.status === status)?.count ?? 0);
        oldest.set({ kind }, rows.find((r) => r.kind === kind && r.status === 'queued')?.oldest ?? 0);
      }
    };
  }

  /** Reads the database-backed gauges; called before each scrape. */
  readonly refresh: () => Promise<void>;

  async scrape(): Promise<{ contentType: string; body: string }> {
    await this.refresh();
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** Whether an Authorization header carries `Bearer <token>` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
