// What every service and job handler is given: config, database, queue, blob store, logger, the
// process's metrics and the pipeline's next steps.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Pipeline } from './core/pipeline.ts';
import type { Database, Db } from './platform/db/database.ts';
import type { Queue } from './platform/queue/queue.ts';
import type { Metrics } from './platform/observability/metrics.ts';
import type { BlobStore } from './platform/storage/blobs.ts';

export interface Context {
  config: Config;
  database: Database;
  db: Db;
  queue: Queue;
  log: Logger;
  blobs: BlobStore;
  metrics: Metrics;
  /** What follows a workspace, a prepared recording or a transcript (core/pipeline.ts). */
  pipeline: Pipeline;
}
