// The one place that reads the environment: one TypeBox schema gives every setting, its default
// and its bounds; a bad value stops the process at start with the list of what is wrong.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string;
  /** Without DATABASE_URL: PGlite in-process, a private PostgreSQL cluster run by Hark, or whichever can run (auto). */
  embeddedDb: 'auto' | 'pglite' | 'postgres';
  /** Where audio lives: a local folder, or an S3-compatible bucket shared by every host. */
  blobs: BlobConfig;
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
  /** HARK_AUTO_TRANSCRIBE: a new workspace's default transcription scenario is automatic. */
  autoTranscribe: boolean;
  /** HARK_REMOTE_ENGINES: whether engines on another server (openai) may be used at all. */
  remoteEngines: boolean;
  llamaThreads: number;
  whisperThreads: number;
  webhooks: { maxAttempts: number; backoffSeconds: number };
  /** Browser sessions: idle and absolute lifetimes. */
  sessions: { idleMinutes: number; maxDays: number };
  trustProxy: boolean;
  /** SIGTERM: how long requests in flight and running work may take to finish. */
  shutdownGraceSeconds: number;
  /** Bearer token of GET /metrics; null: no metrics endpoint. */
  metricsToken: string | null;
  /** A port of its own for /metrics (every process, workers too); null: none. */
  metricsPort: number | null;
  /** The built web interface, served at `/` when it exists. */
  webDir: string;
}

export type BlobConfig =
  | { kind: 'file'; root: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix inside the bucket, '' or ending with '/'. */
      prefix: string;
      endpoint: string | null;
      region: string;
      forcePathStyle: boolean;
      /** null: the AWS SDK's default chain (AWS_ACCESS_KEY_ID…, profiles, instance roles). */
      credentials: { accessKeyId: string; secretAccessKey: string } | null;
    };

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const integer = (fallback: number, minimum: number, maximum: number, description: string) => Type.Integer({ default: fallback, minimum, maximum, description });
const text = (description: string, options: { pattern?: string } = {}) => Type.Optional(Type.String({ description, minLength: 1, ...options }));
const choice = <T extends string>(values: readonly T[], fallback: T, description: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), { default: fallback, description });
const cores = Math.max(1, os.availableParallelism());
/** Relative paths of the project's own files (the web build) are taken from the project, not the working directory. */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every environment variable Hark reads, with its default and bounds (.env.example documents them). */
export const EnvSchema = Type.Object({
  HARK_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'Address to listen on' }),
  HARK_PORT: integer(8080, 0, 65535, 'HTTP port'),
  PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'Alias of HARK_PORT (used when HARK_PORT is not set), as platforms that assign a port set it' })),
  HARK_DATA_DIR: Type.String({ default: './data', minLength: 1, description: 'Embedded database and audio' }),
  DATABASE_URL: text('A PostgreSQL server instead of embedded PGlite', { pattern: '^postgres(ql)?://' }),
  HARK_EMBEDDED_DB: choice(
    ['auto', 'pglite', 'postgres'],
    'auto',
    'Without DATABASE_URL: a private PostgreSQL cluster from Debian\'s binaries under HARK_DATA_DIR/postgres (postgres), PGlite in-process (pglite), or auto: the cluster when it can run here and the folder holds no PGlite store, else PGlite',
  ),
  HARK_DB_SCHEMA: Type.String({ default: 'public', pattern: '^[a-z_][a-z0-9_]{0,40}$', description: 'PostgreSQL schema (lower-case SQL identifier)' }),
  HARK_BLOB_URL: text('Audio storage: file:///folder or s3://bucket/prefix (default HARK_DATA_DIR/blobs)', { pattern: '^(file|s3)://' }),
  HARK_S3_ENDPOINT: text('S3-compatible endpoint (MinIO, Ceph, …); unset: AWS', { pattern: '^https?://' }),
  HARK_S3_REGION: Type.String({ default: 'us-east-1', minLength: 1, description: 'S3 region' }),
  HARK_S3_FORCE_PATH_STYLE: choice(['auto', '0', '1', 'true', 'false'], 'auto', 'Path-style bucket addressing (auto: on when HARK_S3_ENDPOINT is set)'),
  HARK_S3_ACCESS_KEY_ID: text('S3 access key (unset: the AWS SDK default chain)'),
  HARK_S3_SECRET_ACCESS_KEY: text('S3 secret key'),
  HARK_ALLOW_PRIVATE_ADDRESSES: choice(['0', '1', 'true', 'false'], '0', 'Let imports, webhooks and engines reach private addresses (loopback, 10.x, 192.168.x…): for a receiver or a server on your own network'),
  HARK_IMPORT_ALLOW_PRIVATE: choice(['0', '1', 'true', 'false'], '0', 'The older name of HARK_ALLOW_PRIVATE_ADDRESSES (either allows)'),
  HARK_AUTO_TRANSCRIBE: choice(['on', 'off'], 'on', 'Whether a new workspace\'s default transcription scenario transcribes every upload (existing workspaces keep theirs)'),
  HARK_REGISTRATION: choice(['open', 'closed'], 'open', 'Whether anyone may register'),
  HARK_LOG_LEVEL: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', 'Log level'),
  HARK_RATE_LIMIT_PER_MINUTE: integer(600, 1, 1_000_000, 'Requests a minute per key'),
  HARK_WORKER_CONCURRENCY: integer(cores, 1, 256, 'Runs and preparations at once per process'),
  HARK_TRIAL_DAYS: integer(7, 0, 3650, 'Length of the trial'),
  HARK_MAX_UPLOAD_BYTES: integer(2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER, 'Largest upload or import'),
  HARK_MAX_AUDIO_SECONDS: integer(4 * 3600, 1, 7 * 24 * 3600, 'Longest audio prepared'),
  HARK_MAX_METADATA_BYTES: integer(64 * 1024, 2, 16 * 1024 * 1024, 'Largest metadata JSON'),
  HARK_RETENTION_MIN_DAYS: integer(1, 1, 36500, 'Shortest retention'),
  HARK_RETENTION_MAX_DAYS: integer(3650, 1, 36500, 'Longest retention (call-recording rules often ask for years)'),
  HARK_RETENTION_DEFAULT_DAYS: integer(7, 1, 36500, 'Retention when none is given'),
  HARK_IMPORT_MAX_ATTEMPTS: integer(3, 1, 20, 'Download attempts of an import'),
  HARK_IMPORT_BACKOFF_SECONDS: integer(10, 0, 3600, 'First wait between download attempts'),
  HARK_IMPORT_TIMEOUT_SECONDS: integer(120, 1, 86400, 'Time limit of one download'),
  HARK_JOB_POLL_SECONDS: integer(1, 1, 60, 'Queue polling interval'),
  HARK_JOB_TIMEOUT_SECONDS: integer(3600, 5, 86400, 'Queue expiry of a job'),
  HARK_QUEUE_MAINTENANCE_SECONDS: integer(60, 1, 3600, 'Queue maintenance interval'),
  HARK_EXPIRE_INTERVAL_SECONDS: integer(3600, 1, 86400, 'How often expired audio is deleted'),
  HARK_STALE_RUN_SECONDS: integer(120, 5, 86400, 'A run without a heartbeat this long is queued again'),
  HARK_OPENAI_BASE_URL: text('Default server of the openai engines'),
  HARK_REMOTE_ENGINES: choice(['on', 'off'], 'on', 'Whether scenarios may use engines that send audio or text to another server (openai); off refuses them'),
  HARK_OPENAI_API_KEY: text("Key of the openai engines, sent only to HARK_OPENAI_BASE_URL (a scenario's own base_url is called without it)"),
  HARK_LLAMA_THREADS: integer(1, 1, 64, 'llama.cpp threads'),
  HARK_WHISPER_THREADS: integer(cores, 1, 64, 'whisper.cpp threads'),
  HARK_WEBHOOK_MAX_ATTEMPTS: integer(6, 1, 20, 'Delivery attempts of a webhook event'),
  HARK_WEBHOOK_BACKOFF_SECONDS: integer(30, 1, 3600, 'First wait between delivery attempts'),
  HARK_SESSION_IDLE_MINUTES: integer(7 * 24 * 60, 1, 365 * 24 * 60, 'A browser session unused this long ends'),
  HARK_SESSION_MAX_DAYS: integer(30, 1, 365, 'A browser session ends this long after sign-in whatever its use'),
  HARK_SHUTDOWN_GRACE_SECONDS: integer(30, 0, 3600, 'On SIGTERM, how long requests in flight and running work may take before work is given back to the queue'),
  HARK_METRICS_TOKEN: text('Serve Prometheus metrics at /metrics to requests bearing this token'),
  HARK_METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'Also serve /metrics on this port of HARK_HOST, in every process (how a worker is scraped); the token is asked for when set' })),
  HARK_TRUST_PROXY: choice(['0', '1', 'true', 'false'], '0', 'Take the client address and scheme from X-Forwarded-* (behind a TLS proxy)'),
  HARK_WEB_DIR: Type.String({ default: 'web/dist', minLength: 1, description: 'The built web interface (served at / when it exists)' }),
});
type Settings = Static<typeof EnvSchema>;

/** Reads the settings of `env` against EnvSchema: every problem at once, in readable words. */
function readSettings(env: Env): Settings {
  const given: Record<string, string> = {};
  for (const name of Object.keys(EnvSchema.properties)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') given[name] = raw;
  }
  const value: unknown = Value.Default(EnvSchema, Value.Convert(EnvSchema, { ...given }));
  if (Value.Check(EnvSchema, value)) return value;
  const problems = [...Value.Errors(EnvSchema, value)].map((error) => {
    const name = error.path.replace(/^\//, '').split('/')[0] ?? '';
    const schema = EnvSchema.properties[name as keyof Settings] as { minimum?: number; maximum?: number; anyOf?: { const: string }[] } | undefined;
    const rule = schema?.anyOf
      ? `must be one of ${schema.anyOf.map((s) => s.const).join(', ')}`
      : schema?.minimum !== undefined
        ? `must be an integer between ${schema.minimum} and ${schema.maximum}`
        : error.message.toLowerCase();
    return `${name} ${rule} (got "${given[name] ?? ''}")`;
  });
  throw new ConfigError([...new Set(problems)]);
}

/** Levenshtein distance, for suggesting the setting a misspelt name meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** `HARK_*` variables Hark does not read (a typo does nothing silently otherwise), each with the nearest known name. */
export function unknownSettings(env: Env): { name: string; nearest: string }[] {
  const known = Object.keys(EnvSchema.properties);
  return Object.keys(env)
    .filter((name) => name.startsWith('HARK_') && !known.includes(name) && !IGNORED_HARK_VARIABLES.has(name))
    .sort()
    .map((name) => ({ name, nearest: known.reduce((best, candidate) => (distance(name, candidate) < distance(name, best) ? candidate : best)) }));
}

/** Read by the tests and the clients' examples, not by the service. */
const IGNORED_HARK_VARIABLES = new Set(['HARK_URL', 'HARK_API_KEY', 'HARK_TEST_DATABASE_URL', 'HARK_TEST_BACKEND', 'HARK_TEST_LOG_LEVEL', 'HARK_OPENAPI_REPORT']);

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const s = readSettings(env);
  const retention = { minDays: s.HARK_RETENTION_MIN_DAYS, maxDays: s.HARK_RETENTION_MAX_DAYS, defaultDays: s.HARK_RETENTION_DEFAULT_DAYS };
  if (retention.minDays > retention.maxDays || retention.defaultDays < retention.minDays || retention.defaultDays > retention.maxDays) {
    throw new ConfigError(['retention days must satisfy HARK_RETENTION_MIN_DAYS <= HARK_RETENTION_DEFAULT_DAYS <= HARK_RETENTION_MAX_DAYS']);
  }
  return {
    host: s.HARK_HOST,
    port: env.HARK_PORT !== undefined && env.HARK_PORT !== '' ? s.HARK_PORT : (s.PORT ?? s.HARK_PORT),
    dataDir: path.resolve(s.HARK_DATA_DIR),
    databaseUrl: s.DATABASE_URL ?? null,
    databaseSchema: s.HARK_DB_SCHEMA,
    embeddedDb: s.HARK_EMBEDDED_DB as Config['embeddedDb'],
    blobs: blobConfig(s),
    importAllowPrivate: [s.HARK_ALLOW_PRIVATE_ADDRESSES, s.HARK_IMPORT_ALLOW_PRIVATE].some((value) => value === '1' || value === 'true'),
    registration: s.HARK_REGISTRATION as Config['registration'],
    logLevel: s.HARK_LOG_LEVEL,
    rateLimitPerMinute: s.HARK_RATE_LIMIT_PER_MINUTE,
    workerConcurrency: s.HARK_WORKER_CONCURRENCY,
    trialDays: s.HARK_TRIAL_DAYS,
    maxUploadBytes: s.HARK_MAX_UPLOAD_BYTES,
    maxAudioSeconds: s.HARK_MAX_AUDIO_SECONDS,
    maxMetadataBytes: s.HARK_MAX_METADATA_BYTES,
    retention,
    import: { maxAttempts: s.HARK_IMPORT_MAX_ATTEMPTS, backoffSeconds: s.HARK_IMPORT_BACKOFF_SECONDS, timeoutSeconds: s.HARK_IMPORT_TIMEOUT_SECONDS, maxRedirects: 5 },
    jobPollSeconds: s.HARK_JOB_POLL_SECONDS,
    jobTimeoutSeconds: s.HARK_JOB_TIMEOUT_SECONDS,
    queueMaintenanceSeconds: s.HARK_QUEUE_MAINTENANCE_SECONDS,
    expireIntervalSeconds: s.HARK_EXPIRE_INTERVAL_SECONDS,
    staleRunSeconds: s.HARK_STALE_RUN_SECONDS,
    openai: { baseUrl: s.HARK_OPENAI_BASE_URL ?? null, apiKey: s.HARK_OPENAI_API_KEY ?? null },
    remoteEngines: s.HARK_REMOTE_ENGINES === 'on',
    autoTranscribe: s.HARK_AUTO_TRANSCRIBE === 'on',
    sessions: { idleMinutes: s.HARK_SESSION_IDLE_MINUTES, maxDays: s.HARK_SESSION_MAX_DAYS },
    trustProxy: s.HARK_TRUST_PROXY === '1' || s.HARK_TRUST_PROXY === 'true',
    metricsToken: s.HARK_METRICS_TOKEN ?? null,
    metricsPort: s.HARK_METRICS_PORT ?? null,
    shutdownGraceSeconds: s.HARK_SHUTDOWN_GRACE_SECONDS,
    webDir: path.resolve(projectRoot, s.HARK_WEB_DIR),
    llamaThreads: s.HARK_LLAMA_THREADS,
    whisperThreads: s.HARK_WHISPER_THREADS,
    webhooks: { maxAttempts: s.HARK_WEBHOOK_MAX_ATTEMPTS, backoffSeconds: s.HARK_WEBHOOK_BACKOFF_SECONDS },
    ...overrides,
  };
}

const truthy = (value: string) => value === '1' || value === 'true';

/** HARK_BLOB_URL and the HARK_S3_* settings as one store description; a bad combination stops the start. */
function blobConfig(s: Settings): BlobConfig {
  const raw = s.HARK_BLOB_URL;
  if (!raw) return { kind: 'file', root: path.join(path.resolve(s.HARK_DATA_DIR), 'blobs') };
  if (raw.startsWith('file://')) return { kind: 'file', root: fileURLToPath(raw) };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!match?.[1]) throw new ConfigError([`HARK_BLOB_URL must be s3://bucket or s3://bucket/prefix with a valid bucket name (got "${raw}")`]);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (Boolean(s.HARK_S3_ACCESS_KEY_ID) !== Boolean(s.HARK_S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(['HARK_S3_ACCESS_KEY_ID and HARK_S3_SECRET_ACCESS_KEY go together']);
  }
  return {
    kind: 's3',
    bucket: match[1],
    prefix: prefix ? `${prefix}/` : '',
    endpoint: s.HARK_S3_ENDPOINT ?? null,
    region: s.HARK_S3_REGION,
    forcePathStyle: s.HARK_S3_FORCE_PATH_STYLE === 'auto' ? Boolean(s.HARK_S3_ENDPOINT) : truthy(s.HARK_S3_FORCE_PATH_STYLE),
    credentials: s.HARK_S3_ACCESS_KEY_ID && s.HARK_S3_SECRET_ACCESS_KEY ? { accessKeyId: s.HARK_S3_ACCESS_KEY_ID, secretAccessKey: s.HARK_S3_SECRET_ACCESS_KEY } : null,
  };
}
