// Invitations by link: an owner invites an e-mail address with a role and passes the link on;
// opening it shows the workspace, and accepting it (with the account's password, or a new one for
// an address without an account) adds the membership and signs the browser in. Links are single
// use, expire after 7 days, and are stored as the SHA-256 of their token.
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import { roleScopes, type Role } from '../../scopes.ts';
import { hashPassword } from '../../platform/security/passwords.ts';
import { createSession, passwordHolds, type NewSession } from './sessions.ts';
import type { SignInGuard } from './sign-in-guard.ts';

const LIFETIME_MS = 7 * 86_400_000;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface Invitation {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
}

const columns = ['id', 'workspace_id', 'email', 'role', 'created_at', 'expires_at', 'accepted_at'] as const;

/** `createdBy`: the account sending it, whose role it may not exceed when accepted (null: an operator's key). */
export async function createInvitation(ctx: Context, workspaceId: string, input: { email: string; role: Role }, createdBy: string | null): Promise<{ invitation: Invitation; token: string }> {
  const member = await ctx.db
    .selectFrom('accounts as a')
    .innerJoin('memberships as m', 'm.account_id', 'a.id')
    .select('m.role')
    .where('m.workspace_id', '=', workspaceId)
    .where((eb) => eb(eb.fn('lower', ['a.email']), '=', input.email.trim().toLowerCase()))
    .executeTakeFirst();
  // As adding them would be (POST members): their role is changed on the member, not by a link.
  if (member) throw new AppError('already_member', `${input.email.trim()} is already a member (${member.role}): change the role instead`);
  const token = randomBytes(24).toString('base64url');
  const invitation = await ctx.db
    .insertInto('invitations')
    .values({ id: newId('invitation'), workspace_id: workspaceId, email: input.email.trim(), role: input.role, token_hash: hash(token), expires_at: new Date(Date.now() + LIFETIME_MS), created_by: createdBy })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { invitation, token };
}

/** Open invitations (neither accepted nor expired), newest first. */
export function listInvitations(ctx: Context, workspaceId: string): Promise<Invitation[]> {
  return ctx.db.selectFrom('invitations').select(columns).where('workspace_id', '=', workspaceId).where('accepted_at', 'is', null).where('expires_at', '>', new Date()).orderBy('created_at', 'desc').execute();
}

export async function revokeInvitation(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const result = isId('invitation', id) ? await ctx.db.deleteFrom('invitations').where('workspace_id', '=', workspaceId).where('id', '=', id).where('accepted_at', 'is', null).executeTakeFirst() : undefined;
  if (!result || result.numDeletedRows === 0n) throw notFound(`invitation ${id}`);
}

/** Whether a member of role `sender` (null: no longer a member) may grant role `role`. */
const mayGrant = (sender: Role | null, role: Role) => sender !== null && roleScopes[role].every((scope) => roleScopes[sender].includes(scope));
const senderCannotGrant = () => notFound('this invitation (the person who sent it can no longer grant its role)');

async function openInvitation(ctx: Context, token: string) {
  const row = token.length >= 20 && token.length <= 100
    ? await ctx.db
        .selectFrom('invitations')
        .innerJoin('workspaces', 'workspaces.id', 'invitations.workspace_id')
        .leftJoin('memberships as sender', (join) => join.onRef('sender.workspace_id', '=', 'invitations.workspace_id').onRef('sender.account_id', '=', 'invitations.created_by'))
        .select(['invitations.id', 'invitations.workspace_id', 'invitations.email', 'invitations.role', 'invitations.expires_at', 'invitations.accepted_at', 'invitations.created_by', 'workspaces.name as workspace_name', 'sender.role as sender_role'])
        .where('invitations.token_hash', '=', hash(token))
        .executeTakeFirst()
    : undefined;
  if (!row || row.accepted_at !== null || row.expires_at.getTime() <= Date.now()) throw notFound('this invitation (it may have been used, revoked or have expired)');
  // An invitation is as good as its sender's role now: one sent by someone since removed or
  // demoted below the role it offers grants nothing.
  if (row.created_by !== null && !mayGrant(row.sender_role, row.role)) throw senderCannotGrant();
  return row;
}

const accountByEmail = (ctx: Context, email: string) =>
  ctx.db.selectFrom('accounts').select(['id', 'password_hash']).where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();

/** What the link's page shows before accepting. */
export async function describeInvitation(ctx: Context, token: string) {
  const row = await openInvitation(ctx, token);
  return { workspace_name: row.workspace_name, email: row.email, role: row.role, expires_at: row.expires_at, account_exists: (await accountByEmail(ctx, row.email)) !== undefined };
}

/** Joins the workspace: the existing account's password, or the new account's; signs in. */
export async function acceptInvitation(ctx: Context, guard: SignInGuard, token: string, password: string, address: string): Promise<{ session: NewSession; workspaceId: string }> {
  const row = await openInvitation(ctx, token);
  const existing = await accountByEmail(ctx, row.email);
  // An existing account's password is checked as a sign-in is (its waits, its failures): anyone may
  // invite any address to a workspace of their own, so this is a door to every account.
  if (existing && !(await passwordHolds(ctx, guard, { email: row.email, account: existing, password }, address))) {
    throw new AppError('invalid_credentials', `the password of ${row.email} is wrong`);
  }
  const passwordHash = existing ? null : await hashPassword(password);
  const accountId = await ctx.db.transaction().execute(async (trx) => {
    // Single use even when two browsers accept at once.
    const claimed = await trx.updateTable('invitations').set({ accepted_at: new Date() }).where('id', '=', row.id).where('accepted_at', 'is', null).returning('id').executeTakeFirst();
    if (!claimed) throw notFound('this invitation (it has just been used)');
    // The sender's role again, held until the member is in: a removal under way decides first.
    if (row.created_by !== null) {
      const sender = await trx.selectFrom('memberships').select('role').where('workspace_id', '=', row.workspace_id).where('account_id', '=', row.created_by).forShare().executeTakeFirst();
      if (!mayGrant(sender?.role ?? null, row.role)) throw senderCannotGrant();
    }
    let id = existing?.id;
    if (!id) {
      id = newId('account');
      await trx.insertInto('accounts').values({ id, email: row.email, password_hash: passwordHash!, workspace_id: row.workspace_id }).execute();
    }
    await trx
      .insertInto('memberships')
      .values({ workspace_id: row.workspace_id, account_id: id, role: row.role })
      // An account already in the workspace keeps its role.
      .onConflict((oc) => oc.doNothing())
      .execute();
    return id;
  });
  return { session: await createSession(ctx, accountId), workspaceId: row.workspace_id };
}
