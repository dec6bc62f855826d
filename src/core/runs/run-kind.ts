// What the run core needs to know of a kind of run (transcription, analysis): a small description
// per kind. Everything else — create, list, cancel, retry, claim, heartbeat, complete, fail,
// retry later, recovery — is written once, in this folder.
import type { TSchema } from '@sinclair/typebox';
import type { Context } from '../../context.ts';
import type { Selectable } from 'kysely';
import type { Trx } from '../../platform/db/database.ts';
import type { RunColumns } from '../../platform/db/tables.ts';
import type { EngineError } from '../../platform/engine-error.ts';
import type { IdKind } from '../../ids.ts';
import type { RetrySettings } from '../scenarios/scenario-card.ts';

/** The kinds of run, each with its table: the one place a kind's name and table are paired. */
export const runTables = { transcription: 'transcription_runs', analysis: 'analysis_runs' } as const;
export type RunKindName = keyof typeof runTables;
export type RunTable = (typeof runTables)[RunKindName];

export const runStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const activeStatuses = ['queued', 'running'] as const;

export type { RetrySettings };

/** The columns every run table has, as read (the scenario id column's name differs per kind). */
export type RunRow = Selectable<RunColumns>;

export interface ExecuteControl {
  signal: AbortSignal;
  onProgress: (fraction: number) => void;
}

/** What a run may do before it is claimed: wait for its input, fail at once, or go ahead. */
export type Gate<Input> = { wait: number } | { fail: EngineError } | { input: Input };

export interface RunKind<Row extends RunRow, Snapshot extends { retry: RetrySettings }, Input, Output> {
  name: RunKindName;
  table: RunTable;
  job: 'transcribe' | 'analyze';
  idKind: Extract<IdKind, 'transcriptionRun' | 'analysisRun'>;
  /** Webhook event types: `<event>.completed`, `<event>.failed`. */
  event: 'transcription_run' | 'analysis_run';
  /** The scenario snapshot a run keeps, checked whenever it is read back. */
  snapshotSchema: TSchema;
  /** Checks the run's input before it is claimed. */
  gate(ctx: Context, run: Row, snapshot: Snapshot): Promise<Gate<Input>>;
  /** Runs the engine; honours the signal (cancel) and reports progress. */
  execute(ctx: Context, run: Row, snapshot: Snapshot, input: Input, control: ExecuteControl): Promise<Output>;
  /** Stores the output in the transaction that completes the run; returns columns to set on it. */
  persist(ctx: Context, trx: Trx, run: Row, snapshot: Snapshot, input: Input, output: Output): Promise<Partial<Row>>;
  /**
   * After the completing transaction: work that must not happen unless it committed (deleting
   * what the stored result replaces), or, when it did not (cancelled meanwhile), clean-up.
   */
  settle?(ctx: Context, output: Output, committed: boolean): Promise<void>;
  /** The public card of a run, for the API and for webhooks. */
  present(run: Row): object;
}

// Each kind has its own row and snapshot types; the core handles them through this alias.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRunKind = RunKind<any, any, any, any>;
