// API keys: created with scopes, shown once, stored as a hash, revoked by deletion.
import type { Context } from '../context.ts';
import type { Db, Trx } from '../db/database.ts';
import { AppError, notFound } from '../errors.ts';
import { isId, newId } from '../ids.ts';
import type { Scope } from '../scopes.ts';
import { hashKeySecret, keyPrefix, newKeySecret } from '../security/api-key-secret.ts';

export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

export interface NewKey {
  name: string;
  scopes: readonly Scope[];
  expires_at?: Date | string | null;
}

const columns = ['id', 'workspace_id', 'name', 'key_prefix', 'scopes', 'expires_at', 'last_used_at', 'created_at'] as const;

export async function createApiKey(db: Db | Trx, workspaceId: string, input: NewKey): Promise<{ key: ApiKey; secret: string }> {
  if (input.expires_at && new Date(input.expires_at).getTime() <= Date.now()) {
    throw new AppError('validation_failed', 'expires_at must be in the future', [{ path: '/expires_at', message: 'must be in the future' }]);
  }
  const secret = newKeySecret();
  const key = await db
    .insertInto('api_keys')
    .values({
      id: newId('apiKey'),
      workspace_id: workspaceId,
      name: input.name,
      key_hash: hashKeySecret(secret),
      key_prefix: keyPrefix(secret),
      scopes: [...new Set(input.scopes)],
      expires_at: input.expires_at ?? null,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { key, secret };
}

export function listApiKeys(ctx: Context, workspaceId: string): Promise<ApiKey[]> {
  return ctx.db.selectFrom('api_keys').select(columns).where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').execute();
}

export async function deleteApiKey(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const result = isId('apiKey', id)
    ? await ctx.db.deleteFrom('api_keys').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()
    : undefined;
  if (!result || result.numDeletedRows === 0n) throw notFound(`API key ${id}`);
}

/** The key a bearer secret names, if it exists and has not expired. */
export async function findKeyBySecret(ctx: Context, secret: string): Promise<ApiKey | null> {
  if (!secret.startsWith('hark_') || secret.length > 100) return null;
  const key = await ctx.db
    .selectFrom('api_keys')
    .select(columns)
    .where('key_hash', '=', hashKeySecret(secret))
    .executeTakeFirst();
  if (!key || (key.expires_at && key.expires_at.getTime() <= Date.now())) return null;
  return key;
}
