// People in a workspace: each account holds a role (owner, member, viewer) in any number of
// workspaces. The role's scopes are checked on every request a signed-in browser makes, so a
// removed member loses access at once. A workspace always keeps an owner.
import type { Context } from '../../context.ts';
import type { Trx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Role } from '../../scopes.ts';
import { SIGN_IN_FAILURES_KEPT_MS } from './sign-in-guard.ts';
import { createWorkspace, type Workspace } from './workspaces.ts';
import { keysChanged } from './api-keys.ts';

export interface Member {
  account_id: string;
  email: string;
  role: Role;
  created_at: Date;
}

export async function roleIn(ctx: Context, workspaceId: string, accountId: string): Promise<Role | null> {
  const row = await ctx.db.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).executeTakeFirst();
  return row?.role ?? null;
}

/** The workspaces an account belongs to, oldest first, each with the account's role. */
export function workspacesOf(ctx: Context, accountId: string): Promise<(Workspace & { role: Role })[]> {
  return ctx.db
    .selectFrom('memberships')
    .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
    .selectAll('workspaces')
    .select('memberships.role')
    .where('memberships.account_id', '=', accountId)
    .orderBy('workspaces.created_at')
    .orderBy('workspaces.id')
    .execute();
}

export async function addOwner(trx: Trx, workspaceId: string, accountId: string): Promise<void> {
  await trx.insertInto('memberships').values({ workspace_id: workspaceId, account_id: accountId, role: 'owner' }).execute();
}

/** A new workspace on the trial, owned by the account that creates it. */
export function createOwnedWorkspace(ctx: Context, accountId: string, name: string): Promise<Workspace> {
  return ctx.db.transaction().execute(async (trx) => {
    const workspace = await createWorkspace(ctx, trx, name);
    await addOwner(trx, workspace.id, accountId);
    return workspace;
  });
}

export function listMembers(ctx: Context, workspaceId: string): Promise<Member[]> {
  return ctx.db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.account_id', 'accounts.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.workspace_id', '=', workspaceId)
    .orderBy('memberships.created_at')
    .orderBy('memberships.account_id')
    .execute();
}

async function getMember(ctx: Context | { db: Trx }, workspaceId: string, accountId: string): Promise<Member> {
  const member = await ctx.db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.account_id', 'accounts.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.workspace_id', '=', workspaceId)
    .where('memberships.account_id', '=', accountId)
    .executeTakeFirst();
  if (!member) throw notFound(`member ${accountId}`);
  return member;
}

/** Adds an existing account, found by e-mail, with a role. */
export async function addMember(ctx: Context, workspaceId: string, input: { email: string; role: Role }): Promise<Member> {
  const account = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email.trim().toLowerCase()))
    .executeTakeFirst();
  if (!account) throw notFound(`an account with ${input.email.trim()}`);
  const inserted = await ctx.db
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, account_id: account.id, role: input.role })
    .onConflict((oc) => oc.doNothing())
    .returning('account_id')
    .executeTakeFirst();
  if (!inserted) throw new AppError('already_member', `${input.email.trim()} is already a member`);
  return getMember(ctx, workspaceId, account.id);
}

/**
 * Changes a role or removes a member; the last owner can do neither to themselves. `mayChange`
 * refuses (by throwing) a caller who does not hold the member's current role.
 */
export async function changeMember(ctx: Context, workspaceId: string, accountId: string, role: Role | null, mayChange: (current: Role) => void): Promise<Member | null> {
  const changed = await ctx.db.transaction().execute(async (trx) => {
    // Lock the workspace's memberships so two changes cannot both remove "the other" owner.
    const owners = await trx.selectFrom('memberships').select(['account_id', 'role']).where('workspace_id', '=', workspaceId).forUpdate().execute();
    const current = owners.find((m) => m.account_id === accountId);
    if (!current) throw notFound(`member ${accountId}`);
    mayChange(current.role);
    const remainingOwners = owners.filter((m) => m.role === 'owner' && m.account_id !== accountId).length;
    if (current.role === 'owner' && role !== 'owner' && remainingOwners === 0) throw new AppError('last_owner', 'make another member an owner first');
    if (role === null) {
      await trx.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).execute();
      // Their keys go with them (and the keys those made): being added again brings none back.
      await trx.deleteFrom('api_keys').where('workspace_id', '=', workspaceId).where('created_by', '=', accountId).execute();
      return null;
    }
    await trx.updateTable('memberships').set({ role }).where('workspace_id', '=', workspaceId).where('account_id', '=', accountId).execute();
    return getMember({ db: trx }, workspaceId, accountId);
  });
  // The member's keys grant what their role does (auth.ts): no process may go on with the old
  // role. This process forgets at once; should the notice to the others fail, the change stands
  // and their caches lapse within 30 s.
  await keysChanged(ctx).catch((error: unknown) => ctx.log.warn({ err: error }, 'could not tell other processes that a role changed'));
  return changed;
}

/** Failed sign-ins against the workspace's members in the last day, by account and address, most recent first. */
export function recentSignInFailures(ctx: Context, workspaceId: string) {
  return ctx.db
    .selectFrom('sign_in_failures')
    .innerJoin('memberships', (join) => join.onRef('memberships.account_id', '=', 'sign_in_failures.account_id').on('memberships.workspace_id', '=', workspaceId))
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.account_id', 'accounts.email', 'sign_in_failures.address'])
    .select((eb) => [eb.fn.countAll<number>().as('failures'), eb.fn.min('sign_in_failures.failed_at').as('first_failed_at'), eb.fn.max('sign_in_failures.failed_at').as('last_failed_at')])
    .where('sign_in_failures.failed_at', '>', new Date(Date.now() - SIGN_IN_FAILURES_KEPT_MS))
    .groupBy(['memberships.account_id', 'accounts.email', 'sign_in_failures.address'])
    .orderBy('last_failed_at', 'desc')
    .limit(500)
    .execute();
}
