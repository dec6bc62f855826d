// Events for webhooks: written in the transaction of the state change that causes them, with one
// delivery job per subscribed endpoint, so no event is lost if the process dies after the commit.
import type { Context } from '../context.ts';
import type { Trx } from '../platform/db/database.ts';
import { newUuid } from '../ids.ts';
import { presentExecution } from './executions/execution-card.ts';
import { hasActiveRun } from './runs/run-store.ts';
import { withCounts, type ExecutionKind } from './executions/executions.ts';
import { runTables } from './runs/run-kind.ts';

export const eventTypes = [
  'recording.completed',
  'recording.failed',
  'recording.download_failed',
  'recording.updated',
  'transcription_run.completed',
  'transcription_run.failed',
  'transcript.corrected',
  'recording.categorized',
  'analysis_run.completed',
  'analysis_run.failed',
  'analysis_answer.reviewed',
  'execution.completed',
] as const;
export type EventType = (typeof eventTypes)[number];

export async function emitEvent(ctx: Context, trx: Trx, workspaceId: string, type: EventType, data: object): Promise<void> {
  const hooks = await trx.selectFrom('webhooks').select(['id', 'events']).where('workspace_id', '=', workspaceId).where('enabled', '=', true).execute();
  const targets = hooks.filter((hook) => hook.events.includes('*') || hook.events.includes(type));
  if (targets.length === 0) return;
  const id = `msg_${newUuid()}`;
  const createdAt = new Date();
  const payload = JSON.stringify({ id, type, created_at: createdAt.toISOString(), workspace_id: workspaceId, data });
  await trx.insertInto('webhook_events').values({ id, workspace_id: workspaceId, type, payload, created_at: createdAt }).execute();
  for (const hook of targets) await ctx.queue.send('deliver-webhook', { webhookId: hook.id, eventId: id, attempt: 1 }, { trx });
}

/**
 * Marks an execution finished, once, when its last run ends. The execution's row is locked first:
 * of two runs ending at once in two transactions, each would otherwise see the other still running
 * and neither end the execution; locked, the second looks after the first has committed. The lock
 * is "no key update", which the key-share lock a run's write takes on its execution (the foreign
 * key's check) does not wait for: "for update" did, and two runs ending at once deadlocked.
 */
export async function executionProgress(ctx: Context, trx: Trx, kind: ExecutionKind, workspaceId: string, executionId: string): Promise<void> {
  await trx.selectFrom('executions').select('id').where('id', '=', executionId).forNoKeyUpdate().execute();
  if (await hasActiveRun(trx, runTables[kind], { executionId })) return;
  const finished = await trx.updateTable('executions').set({ finished_at: new Date() }).where('id', '=', executionId).where('finished_at', 'is', null).returningAll().executeTakeFirst();
  if (finished) await emitEvent(ctx, trx, workspaceId, 'execution.completed', presentExecution(await withCounts({ db: trx }, finished)));
}
