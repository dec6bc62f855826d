// The one place that reads the environment: every setting, its default and its bounds.
import os from 'node:os';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string;
  blobUrl: string | null;
  importAllowPrivate: boolean;
  registration: 'open' | 'closed';
  logLevel: string;
  rateLimitPerMinute: number;
  workerConcurrency: number;
  trialDays: number;
  maxUploadBytes: number;
  /** Longest audio prepared; longer recordings fail with audio_too_long. */
  maxAudioSeconds: number;
  maxMetadataBytes: number;
  retention: { minDays: number; maxDays: number; defaultDays: number };
  import: { maxAttempts: number; backoffSeconds: number; timeoutSeconds: number; maxRedirects: number };
  jobPollSeconds: number;
  jobTimeoutSeconds: number;
  queueMaintenanceSeconds: number;
  expireIntervalSeconds: number;
  staleRunSeconds: number;
  openai: { baseUrl: string | null; apiKey: string | null };
  llamaThreads: number;
  whisperThreads: number;
  webhooks: { maxAttempts: number; backoffSeconds: number };
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };
  const flag = (name: string): boolean => oneOf(name, '0', ['0', '1', 'true', 'false']) === '1' || env[name] === 'true';
  const text = (name: string): string | null => {
    const raw = env[name];
    return raw === undefined || raw === '' ? null : raw;
  };

  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const databaseSchema = env.HARK_DB_SCHEMA || 'public';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(databaseSchema)) {
    problems.push('HARK_DB_SCHEMA must be a lower-case SQL identifier');
  }
  const blobUrl = text('HARK_BLOB_URL');
  if (blobUrl !== null && !blobUrl.startsWith('file://')) {
    problems.push('HARK_BLOB_URL: only file:// storage is available in this build (s3:// is planned)');
  }
  const minDays = int('HARK_RETENTION_MIN_DAYS', 1, 1, 36500);
  const maxDays = int('HARK_RETENTION_MAX_DAYS', 30, 1, 36500);
  const defaultDays = int('HARK_RETENTION_DEFAULT_DAYS', 7, 1, 36500);
  if (minDays > maxDays || defaultDays < minDays || defaultDays > maxDays) {
    problems.push('retention days must satisfy HARK_RETENTION_MIN_DAYS <= HARK_RETENTION_DEFAULT_DAYS <= HARK_RETENTION_MAX_DAYS');
  }

  const config: Config = {
    host: env.HARK_HOST || '127.0.0.1',
    port: int('PORT', 8080, 0, 65535),
    dataDir: path.resolve(env.HARK_DATA_DIR || './data'),
    databaseUrl,
    databaseSchema,
    blobUrl,
    importAllowPrivate: flag('HARK_IMPORT_ALLOW_PRIVATE'),
    registration: oneOf('HARK_REGISTRATION', 'open', ['open', 'closed'] as const),
    logLevel: oneOf('HARK_LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    rateLimitPerMinute: int('HARK_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    workerConcurrency: int('HARK_WORKER_CONCURRENCY', Math.max(1, os.availableParallelism()), 1, 256),
    trialDays: int('HARK_TRIAL_DAYS', 7, 0, 3650),
    maxUploadBytes: int('HARK_MAX_UPLOAD_BYTES', 2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    maxAudioSeconds: int('HARK_MAX_AUDIO_SECONDS', 4 * 3600, 1, 7 * 24 * 3600),
    maxMetadataBytes: int('HARK_MAX_METADATA_BYTES', 64 * 1024, 2, 16 * 1024 * 1024),
    retention: { minDays, maxDays, defaultDays },
    import: {
      maxAttempts: int('HARK_IMPORT_MAX_ATTEMPTS', 3, 1, 20),
      backoffSeconds: int('HARK_IMPORT_BACKOFF_SECONDS', 10, 0, 3600),
      timeoutSeconds: int('HARK_IMPORT_TIMEOUT_SECONDS', 120, 1, 86400),
      maxRedirects: 5,
    },
    jobPollSeconds: int('HARK_JOB_POLL_SECONDS', 1, 1, 60),
    jobTimeoutSeconds: int('HARK_JOB_TIMEOUT_SECONDS', 3600, 5, 86400),
    queueMaintenanceSeconds: int('HARK_QUEUE_MAINTENANCE_SECONDS', 60, 1, 3600),
    expireIntervalSeconds: int('HARK_EXPIRE_INTERVAL_SECONDS', 3600, 1, 86400),
    staleRunSeconds: int('HARK_STALE_RUN_SECONDS', 120, 5, 86400),
    openai: { baseUrl: text('HARK_OPENAI_BASE_URL'), apiKey: text('HARK_OPENAI_API_KEY') },
    llamaThreads: int('HARK_LLAMA_THREADS', 1, 1, 64),
    whisperThreads: int('HARK_WHISPER_THREADS', Math.max(1, os.availableParallelism()), 1, 64),
    webhooks: { maxAttempts: int('HARK_WEBHOOK_MAX_ATTEMPTS', 6, 1, 20), backoffSeconds: int('HARK_WEBHOOK_BACKOFF_SECONDS', 30, 1, 3600) },
    ...overrides,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
