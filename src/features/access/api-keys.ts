// API keys: created with scopes, shown once, stored as a hash, revoked by deletion. Keys found by
// their secret are cached per process for KEY_CACHE_MS, so a request needs no query to
// authenticate; a revocation empties the cache of every process at once (a NOTIFY on
// KEYS_CHANNEL, see Database.listen), and `last_used_at` is written at most once a minute per key.
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import type { RowWindow } from '../../core/cursor.ts';
import type { Role, Scope } from '../../scopes.ts';
import { hashKeySecret, keyPrefix, newKeySecret } from '../../platform/security/api-key-secret.ts';

export interface ApiKey {
  id: string;
  workspace_id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  expires_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  created_by: string | null;
}

/** A key as authentication reads it: with its creator's role in the workspace now (null: gone). */
export interface KeyHolder extends ApiKey {
  creator_role: Role | null;
}

export interface NewKey {
  name: string;
  scopes: readonly Scope[];
  expires_at?: Date | string | null;
}

const columns = ['id', 'workspace_id', 'name', 'key_prefix', 'scopes', 'expires_at', 'last_used_at', 'created_at', 'created_by'] as const;

/** Who makes a key: the account whose role bounds it, and the key that makes it (if one does). */
export interface KeyMaker {
  account: string | null;
  key: { id: string; expires_at: Date | null } | null;
}

/**
 * A new key. `maker.account`: the account whose role bounds it from now on (see KeyHolder), or
 * null for an operator's key that answers to no one's role. A key made by a key goes with it: it
 * is deleted with it and expires no later (without an expiry of its own, it takes the maker's).
 */
export async function createApiKey(db: Db | Trx, workspaceId: string, input: NewKey, maker: KeyMaker): Promise<{ key: ApiKey; secret: string }> {
  const name = input.name.trim();
  if (!name) throw invalid('name', 'must not be blank');
  if (input.expires_at && new Date(input.expires_at).getTime() <= Date.now()) {
    throw new AppError('validation_failed', 'expires_at must be in the future', [{ path: 'expires_at', message: 'must be in the future' }]);
  }
  const limit = maker.key?.expires_at ?? null;
  if (limit && input.expires_at && new Date(input.expires_at).getTime() > limit.getTime()) {
    throw new AppError('validation_failed', `expires_at must not be after the expiry of the key that makes it (${limit.toISOString()})`, [{ path: 'expires_at', message: 'must not be after the expiry of the key that makes it' }]);
  }
  const secret = newKeySecret();
  const insert = async (trx: Db | Trx) => {
    // The maker still there, held until the key is in: a removal (which deletes its keys) or a
    // revocation of the making key waits for this insert, or this one sees it and refuses.
    if (maker.account !== null) {
      const member = await trx.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('account_id', '=', maker.account).forShare().executeTakeFirst();
      if (!member) throw new AppError('not_a_member', 'the account that makes this key is no longer a member of the workspace');
    }
    if (maker.key !== null) {
      const alive = await trx.selectFrom('api_keys').select('id').where('id', '=', maker.key.id).forShare().executeTakeFirst();
      if (!alive) throw new AppError('unauthorized', 'the API key that makes this key has just been revoked');
    }
    return trx
      .insertInto('api_keys')
      .values({
        id: newId('apiKey'),
        workspace_id: workspaceId,
        name,
        key_hash: hashKeySecret(secret),
        key_prefix: keyPrefix(secret),
        scopes: [...new Set(input.scopes)],
        expires_at: input.expires_at ?? limit,
        created_by: maker.account,
        created_by_key: maker.key?.id ?? null,
      })
      .returning(columns)
      .executeTakeFirstOrThrow();
  };
  const key = db.isTransaction ? await insert(db) : await (db as Db).transaction().execute(insert);
  return { key, secret };
}

/** A workspace's keys, newest first; `window` takes a page of them. */
export function listApiKeys(ctx: Context, workspaceId: string, window?: RowWindow): Promise<ApiKey[]> {
  let query = ctx.db.selectFrom('api_keys').select(columns).where('workspace_id', '=', workspaceId).orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (window) query = query.offset(window.start).limit(window.take);
  return query.execute();
}

/** Revokes a key at once; `mayRevoke` sees its scopes first (and throws to refuse). */
export async function deleteApiKey(ctx: Context, workspaceId: string, id: string, mayRevoke: (scopes: readonly string[]) => void): Promise<void> {
  const key = isId('apiKey', id) ? await ctx.db.selectFrom('api_keys').select(['id', 'scopes']).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!key) throw notFound(`API key ${id}`);
  mayRevoke(key.scopes);
  const result = await ctx.db.deleteFrom('api_keys').where('workspace_id', '=', workspaceId).where('id', '=', key.id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound(`API key ${id}`);
  await keysChanged(ctx);
}

/** What a key grants changed (a key revoked, its creator's role changed): every process reads keys afresh. */
export async function keysChanged(ctx: Context): Promise<void> {
  forgetCachedKeys(ctx);
  await sql`SELECT pg_notify(${KEYS_CHANNEL}, '')`.execute(ctx.db);
}

export const KEYS_CHANNEL = 'hark_api_keys';
const KEY_CACHE_MS = 30_000;
const KEY_CACHE_SIZE = 10_000;
const LAST_USED_EVERY_MS = 60_000;

interface Cached {
  key: KeyHolder;
  at: number;
  touched: number;
}

/** One cache per database (a test process runs several). */
const caches = new WeakMap<object, Map<string, Cached>>();
const cacheOf = (ctx: Context) => {
  let cache = caches.get(ctx.db);
  if (!cache) caches.set(ctx.db, (cache = new Map()));
  return cache;
};

/**
 * How many times each database's cache was emptied: a lookup that was under way when it was
 * emptied (a revocation, a role changed) does not put what it read before back into it.
 */
const generations = new WeakMap<object, number>();

/** Forgets every cached key of this process (a revocation somewhere, or a lost listener). */
export function forgetCachedKeys(ctx: Context): void {
  cacheOf(ctx).clear();
  generations.set(ctx.db, (generations.get(ctx.db) ?? 0) + 1);
}

/** The key a bearer secret names, if it exists and has not expired, with its creator's role now. */
export async function findKeyBySecret(ctx: Context, secret: string): Promise<KeyHolder | null> {
  if (!secret.startsWith('hark_') || secret.length > 100) return null;
  const hash = hashKeySecret(secret);
  const cache = cacheOf(ctx);
  const now = Date.now();
  let cached = cache.get(hash);
  if (!cached || now - cached.at > KEY_CACHE_MS) {
    const generation = generations.get(ctx.db) ?? 0;
    const key = await ctx.db
      .selectFrom('api_keys as k')
      .leftJoin('memberships as m', (join) => join.onRef('m.workspace_id', '=', 'k.workspace_id').onRef('m.account_id', '=', 'k.created_by'))
      .select(columns.map((column) => `k.${column}` as const))
      .select('m.role as creator_role')
      .where('k.key_hash', '=', hash)
      .executeTakeFirst();
    if (!key) {
      cache.delete(hash);
      return null;
    }
    cached = { key, at: now, touched: cached?.touched ?? 0 };
    if ((generations.get(ctx.db) ?? 0) === generation) {
      if (cache.size >= KEY_CACHE_SIZE) cache.clear();
      cache.set(hash, cached);
    }
  }
  const { key } = cached;
  if (key.expires_at && key.expires_at.getTime() <= now) return null;
  if (now - cached.touched >= LAST_USED_EVERY_MS) {
    cached.touched = now;
    ctx.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', key.id)
      .execute()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not record when an API key was used'));
  }
  return key;
}
