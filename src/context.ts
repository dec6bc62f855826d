// What every service and job handler is given: config, database, queue, blob store, logger and
// the process's metrics.
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database, Db } from './db/database.ts';
import type { Queue } from './jobs/queue.ts';
import type { Metrics } from './observability/metrics.ts';
import type { BlobStore } from './storage/blobs.ts';

export interface Context {
  config: Config;
  database: Database;
  db: Db;
  queue: Queue;
  log: Logger;
  blobs: BlobStore;
  metrics: Metrics;
}
