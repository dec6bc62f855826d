// Row types of every table, as Kysely sees them.
import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json = ColumnType<unknown, string, string>;

export interface WorkspacesTable {
  id: string;
  name: string;
  plan: string | null;
  trial_ends_at: Timestamp;
  default_retention_days: number | null;
  created_at: CreatedAt;
}

export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string;
  workspace_id: string;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  scopes: string[];
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  created_at: CreatedAt;
  /** The account whose role bounds the key (null: an operator's key, or one made before 038). */
  created_by: string | null;
  /** The key that made this one (deleted with it; never expires after it), or null. */
  created_by_key: string | null;
}

export interface TranscriptionScenariosTable {
  id: string;
  workspace_id: string;
  name: string;
  engine: string;
  model: string;
  language: string;
  options: Json;
  auto: boolean;
  retry: Json;
  selection: Json;
  version: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AnalysisScenariosTable {
  id: string;
  workspace_id: string;
  name: string;
  engine: string;
  model: string;
  instructions: string;
  questions: Json;
  summary: boolean;
  auto: boolean;
  retry: Json;
  selection: Json;
  options: Json;
  version: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A recording's states: download_* for imports, then queued → processing → completed or failed. */
export const recordingStatuses = ['download_pending', 'downloading', 'download_retry_wait', 'download_failed', 'queued', 'processing', 'completed', 'failed'] as const;
export type RecordingStatus = (typeof recordingStatuses)[number];
/** An import still fetching its audio. */
export const downloadingStatuses: readonly RecordingStatus[] = ['download_pending', 'downloading', 'download_retry_wait'];
/** A recording that failed: its preparation, or its import's download. */
export const failedRecordingStatuses: readonly RecordingStatus[] = ['failed', 'download_failed'];
/** The statuses a transcription can start from (assertTranscribable): neither downloading nor failed (the audio is here, prepared or being prepared). */
export const transcribableStatuses: readonly RecordingStatus[] = recordingStatuses.filter((status) => !downloadingStatuses.includes(status) && !failedRecordingStatuses.includes(status));

export interface RecordingsTable {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  status: RecordingStatus;
  filename: string;
  content_type: string | null;
  size_bytes: number | null;
  duration_seconds: number | null;
  metadata: Json;
  metadata_json: string;
  retention_days: number;
  expires_at: Timestamp;
  audio_deleted_at: NullableTimestamp;
  channels: number | null;
  audio_redacted_at: NullableTimestamp;
  original_audio_deleted_at: NullableTimestamp;
  source: string;
  source_url: string | null;
  download_attempts: Generated<number>;
  pipeline: Generated<boolean>;
  error_code: string | null;
  error_message: string | null;
  /** When the call took place (migration 024). */
  recorded_at: ColumnType<Date, Date | string | undefined, Date | string>;
  recorded_at_source: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ExecutionsTable {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  kind: string;
  scenario_id: string;
  idempotency_key: string;
  request_hash: string;
  recording_ids: string[];
  finished_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** The columns every run table has; each kind adds its scenario and output ids. */
export interface RunColumns {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  recording_id: string;
  execution_id: string | null;
  retry_of: string | null;
  status: string;
  attempts: Generated<number>;
  progress: Generated<number>;
  engine: string;
  model: string;
  scenario: Json;
  error_code: string | null;
  error_message: string | null;
  retryable: boolean | null;
  /** host/pid of the process that claimed it last. */
  worker: string | null;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface TranscriptionRunsTable extends RunColumns {
  transcription_scenario_id: string;
  transcript_id: string | null;
}

export interface TranscriptsTable {
  id: string;
  seq: Generated<number>;
  workspace_id: string;
  transcription_run_id: string;
  recording_id: string;
  language: string;
  duration_seconds: number | null;
  text: string;
  segments: Json;
  words: Json;
  summary: string | null;
  stats: Json | null;
  created_at: CreatedAt;
  version: Generated<number>;
  previous_transcript_id: string | null;
  current: Generated<boolean>;
  /** Who corrected it: an account id (a session) or an API key id. */
  corrected_by: string | null;
  /** Where each channel has sound, by channel (talk-stats.ts ChannelSpeech); null before measured. */
  sound: Json | null;
  /** Sentiment per segment and speaker (sentiment.ts); null before scored. */
  sentiment: Json | null;
  /** Phrases spotted in the audio (the scenario's `spot`); null when it spots none. */
  spotted: ColumnType<unknown, string | null | undefined, string | null>;
  /** Key phrases, ranked (key-phrases.ts); null before found. */
  key_phrases: ColumnType<unknown, string | null | undefined, string | null>;
  /** Chapters (chapters.ts); null before cut. */
  chapters: ColumnType<unknown, string | null | undefined, string | null>;
  /** Each segment's sentence embedding, packed (segment-vectors.ts); null until a rule needed them. */
  segment_vectors: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AnalysisRunsTable extends RunColumns {
  analysis_scenario_id: string;
  transcript_id: string | null;
  transcription_run_id: string | null;
}

export interface AnalysisResultsTable {
  analysis_run_id: string;
  seq: Generated<number>;
  workspace_id: string;
  recording_id: string;
  transcript_id: string;
  transcription_run_id: string;
  analysis_scenario_id: string;
  engine: string;
  model: string;
  summary: string | null;
  answers: Json;
  tokens_used: number;
  created_at: CreatedAt;
}

export interface CategoriesTable {
  id: string;
  workspace_id: string;
  name: string;
  rule: Json;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

export interface RecordingCategoriesTable {
  recording_id: string;
  category_id: string;
  workspace_id: string;
  transcript_id: string;
  created_at: CreatedAt;
}

export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  description: Generated<string>;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  failing_since: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface WebhookEventsTable {
  id: string;
  workspace_id: string;
  type: string;
  payload: string;
  created_at: CreatedAt;
}

export interface WebhookDeliveriesTable {
  id: string;
  seq: Generated<number>;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  success: boolean;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  next_attempt_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface MembershipsTable {
  workspace_id: string;
  account_id: string;
  role: 'owner' | 'member' | 'viewer';
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  account_id: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  role: 'owner' | 'member' | 'viewer';
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  /** The account that sent it, whose role bounds it when accepted (null: an operator's key, or sent before 038). */
  created_by: string | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: Date;
  count: number;
}

export interface SignInFailuresTable {
  id: Generated<number>;
  /** SHA-256 of the account's e-mail and the address: the pair's failures. */
  key: string;
  /** SHA-256 of the address: every failure from it. */
  address_key: string;
  address: string;
  /** Set once the failure is known to be against an existing account. */
  account_id: string | null;
  failed_at: Generated<Date>;
}

export interface AnalysisFactsTable {
  analysis_run_id: string;
  workspace_id: string;
  analysis_scenario_id: string;
  recording_id: string;
  created_at: Date;
  /** Generated from created_at (migration 021): the period numbers reports group by. */
  created_day: ColumnType<number, never, never>;
  created_week: ColumnType<number, never, never>;
  created_month: ColumnType<number, never, never>;
  recorded_at: Date;
  recorded_day: ColumnType<number, never, never>;
  recorded_week: ColumnType<number, never, never>;
  recorded_month: ColumnType<number, never, never>;
  metadata: Json;
  booleans: Json;
  /** {question_id: true} for each uncertain boolean answer (confidence below UNCERTAIN_BELOW). */
  uncertain: Generated<Json>;
  /** {question_id: "agreed" | "overturned"} for each yes/no answer a person reviewed (migration 039); `booleans` then holds the reviewed answer. */
  reviews: Generated<Json>;
  /** The recording's latest result for the scenario (migration 023): what reports count. */
  latest: Generated<boolean>;
}

export interface Tables {
  analysis_facts: AnalysisFactsTable;
  rate_limits: RateLimitsTable;
  sign_in_failures: SignInFailuresTable;
  invitations: InvitationsTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  analysis_runs: AnalysisRunsTable;
  analysis_results: AnalysisResultsTable;
  executions: ExecutionsTable;
  transcription_runs: TranscriptionRunsTable;
  transcripts: TranscriptsTable;
  recordings: RecordingsTable;
  transcription_scenarios: TranscriptionScenariosTable;
  analysis_scenarios: AnalysisScenariosTable;
  categories: CategoriesTable;
  recording_categories: RecordingCategoriesTable;
  workspaces: WorkspacesTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
}

export type { Generated };
