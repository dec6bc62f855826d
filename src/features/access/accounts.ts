// Registration: an account, its workspace (trial and default scenarios) and a key with every scope.
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { scopes } from '../../scopes.ts';
import { hashPassword } from '../../platform/security/passwords.ts';
import { createApiKey } from './api-keys.ts';
import { addOwner } from './memberships.ts';
import { createWorkspace } from './workspaces.ts';

export interface Registration {
  account_id: string;
  workspace_id: string;
  api_key: string;
  trial_ends_at: Date;
}

export async function register(
  ctx: Context,
  input: { email: string; password: string; workspace_name: string },
): Promise<Registration> {
  if (ctx.config.registration === 'closed') throw new AppError('registration_closed');
  const email = input.email.trim();
  const passwordHash = await hashPassword(input.password);
  const taken = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (taken) throw new AppError('email_taken', `an account with ${email} already exists`);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const workspace = await createWorkspace(ctx, trx, input.workspace_name, 'workspace_name');
      const accountId = newId('account');
      await trx.insertInto('accounts').values({ id: accountId, email, password_hash: passwordHash, workspace_id: workspace.id }).execute();
      await addOwner(trx, workspace.id, accountId);
      const { secret } = await createApiKey(trx, workspace.id, { name: 'Registration key', scopes }, { account: accountId, key: null });
      return { account_id: accountId, workspace_id: workspace.id, api_key: secret, trial_ends_at: workspace.trial_ends_at };
    });
  } catch (error) {
    // Two registrations racing for one email: the unique index decides.
    if ((error as { code?: string }).code === '23505') throw new AppError('email_taken', `an account with ${email} already exists`);
    throw error;
  }
}
