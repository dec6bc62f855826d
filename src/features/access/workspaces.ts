// Workspaces: creation with a trial and default scenarios, plans, and the trial rule.
import type { Context } from '../../context.ts';
import type { Trx } from '../../platform/db/database.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';

export interface Workspace {
  id: string;
  name: string;
  plan: string | null;
  trial_ends_at: Date;
  default_retention_days: number | null;
  created_at: Date;
}

/** A new workspace on the trial; its name trimmed, never blank (`field` names it in the error). */
export async function createWorkspace(ctx: Context, trx: Trx, name: string, field = 'name'): Promise<Workspace> {
  const trimmed = name.trim();
  if (!trimmed) throw invalid(field, 'must not be blank');
  const id = newId('workspace');
  const trialEndsAt = new Date(Date.now() + ctx.config.trialDays * 86_400_000);
  const workspace = await trx
    .insertInto('workspaces')
    .values({ id, name: trimmed, trial_ends_at: trialEndsAt })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Its first scenarios (wiring/automation.ts).
  await ctx.pipeline.workspaceCreated(trx, id);
  return workspace;
}

export async function getWorkspace(ctx: Context, id: string): Promise<Workspace> {
  const workspace = await ctx.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
  if (!workspace) throw notFound(`workspace ${id}`);
  return workspace;
}

export async function setPlan(ctx: Context, id: string, plan: string | null): Promise<Workspace> {
  const workspace = await ctx.db
    .updateTable('workspaces')
    .set({ plan })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!workspace) throw notFound(`workspace ${id}`);
  return workspace;
}

/** Creating work (uploads, imports, runs, executions) needs a plan or a running trial. */
export function assertCanCreateWork(workspace: Workspace, now = new Date()): void {
  if (workspace.plan === null && workspace.trial_ends_at.getTime() <= now.getTime()) {
    throw new AppError('trial_expired', `the trial ended at ${workspace.trial_ends_at.toISOString()}; an operator can set a plan`);
  }
}

/** Renames a workspace or sets its default retention (null: the server's default). */
export async function updateWorkspace(ctx: Context, id: string, input: { name?: string | undefined; default_retention_days?: number | null | undefined }): Promise<Workspace> {
  const days = input.default_retention_days;
  if (days !== undefined && days !== null && (days < ctx.config.retention.minDays || days > ctx.config.retention.maxDays)) {
    throw invalid('default_retention_days', `must be between ${ctx.config.retention.minDays} and ${ctx.config.retention.maxDays}`);
  }
  const changes = { ...(input.name !== undefined ? { name: input.name.trim() } : {}), ...(days !== undefined ? { default_retention_days: days } : {}) };
  if (changes.name === '') throw invalid('name', 'must not be blank');
  if (Object.keys(changes).length === 0) return getWorkspace(ctx, id);
  const workspace = await ctx.db.updateTable('workspaces').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  if (!workspace) throw notFound(`workspace ${id}`);
  return workspace;
}
