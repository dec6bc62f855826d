// Browser sessions: signing in with email and password (throttled per account and address pair),
// a random token in an HttpOnly cookie stored as its SHA-256, idle and absolute expiry, and a CSRF
// token derived from the session token. Changing the password ends every session of the account.
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newUuid } from '../../ids.ts';
import { hashPassword, verifyPassword } from '../../platform/security/passwords.ts';
import type { SignInGuard } from './sign-in-guard.ts';

export interface Session {
  id: string;
  account_id: string;
  email: string;
  created_at: Date;
  expires_at: Date;
}

/** A session with the token its cookie carries (known only at sign-in). */
export interface NewSession {
  session: Session;
  token: string;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
/** Seen-at is written at most this often, not on every request. */
const TOUCH_MS = 60_000;

export function csrfTokenFor(token: string): string {
  return createHash('sha256').update(`csrf:${token}`).digest('base64url');
}

function throttled(seconds: number): AppError {
  return new AppError('rate_limited', 'too many failed sign-ins from this address: wait before trying again', undefined, { 'retry-after': String(seconds) });
}

export async function signIn(ctx: Context, guard: SignInGuard, input: { email: string; password: string }, address: string): Promise<NewSession> {
  const email = input.email.trim().toLowerCase();
  const account = await ctx.db
    .selectFrom('accounts')
    .select(['id', 'email', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  if (!(await passwordHolds(ctx, guard, { email, account, password: input.password }, address))) throw new AppError('invalid_credentials');
  return createSession(ctx, account!.id);
}

/**
 * Whether `password` is the account's, checked under the guard's waits (429 while the pair or the
 * address must wait), the failure recorded for the owner's view: every place that takes an
 * account's password (signing in, accepting an invitation with an existing account) goes through
 * here, so none is a way round the waits.
 */
export async function passwordHolds(
  ctx: Context,
  guard: SignInGuard,
  input: { email: string; account: { id: string; password_hash: string } | undefined; password: string },
  address: string,
): Promise<boolean> {
  // The guard counts by the address as an account is found: in any case, without spaces.
  const email = input.email.trim().toLowerCase();
  const attempt = await guard.begin(ctx.db, email, address);
  if ('wait' in attempt) throw throttled(attempt.wait);
  // Unknown accounts cost the same scrypt as known ones, so timing does not tell them apart.
  const ok = input.account ? await verifyPassword(input.password, input.account.password_hash) : (await hashPassword(input.password), false);
  if (!input.account || !ok) {
    await guard.failed(ctx.db, attempt, input.account?.id ?? null);
    return false;
  }
  await guard.succeeded(ctx.db, attempt, email, address);
  return true;
}

export async function createSession(ctx: Context, accountId: string): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const expires = new Date(Date.now() + ctx.config.sessions.maxDays * 86_400_000);
  const row = await ctx.db
    .insertInto('sessions')
    .values({ id: newUuid(), token_hash: hash(token), account_id: accountId, last_seen_at: new Date(), expires_at: expires })
    .returning(['id', 'account_id', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
  const { email } = await ctx.db.selectFrom('accounts').select('email').where('id', '=', accountId).executeTakeFirstOrThrow();
  return { session: { ...row, email }, token };
}

/** The live session a cookie's token names; an idle or expired one is deleted and gives null. */
export async function findSession(ctx: Context, token: string): Promise<Session | null> {
  if (token.length < 20 || token.length > 100) return null;
  const row = await ctx.db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .select(['sessions.id', 'sessions.account_id', 'accounts.email', 'sessions.created_at', 'sessions.expires_at', 'sessions.last_seen_at'])
    .where('sessions.token_hash', '=', hash(token))
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  if (row.expires_at.getTime() <= now || row.last_seen_at.getTime() + ctx.config.sessions.idleMinutes * 60_000 <= now) {
    await ctx.db.deleteFrom('sessions').where('id', '=', row.id).execute();
    return null;
  }
  if (now - row.last_seen_at.getTime() > TOUCH_MS) await ctx.db.updateTable('sessions').set({ last_seen_at: new Date(now) }).where('id', '=', row.id).execute();
  return { id: row.id, account_id: row.account_id, email: row.email, created_at: row.created_at, expires_at: row.expires_at };
}

export async function endSession(ctx: Context, id: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('id', '=', id).execute();
}

/**
 * A new password ends every session of the account; the caller signs the current browser in
 * again. The current password is checked as a sign-in is: a stolen session cannot guess it faster.
 */
export async function changePassword(ctx: Context, guard: SignInGuard, accountId: string, passwords: { current: string; next: string }, address: string): Promise<NewSession> {
  const account = await ctx.db.selectFrom('accounts').select(['id', 'email', 'password_hash']).where('id', '=', accountId).executeTakeFirstOrThrow();
  if (!(await passwordHolds(ctx, guard, { email: account.email, account, password: passwords.current }, address))) throw new AppError('invalid_credentials', 'the current password is wrong');
  const passwordHash = await hashPassword(passwords.next);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
    await trx.deleteFrom('sessions').where('account_id', '=', accountId).execute();
  });
  return createSession(ctx, accountId);
}

/** Sessions past their absolute or idle limit (the expiry sweep calls this). */
export async function deleteExpiredSessions(ctx: Context): Promise<void> {
  const idleBefore = new Date(Date.now() - ctx.config.sessions.idleMinutes * 60_000);
  await ctx.db.deleteFrom('sessions').where((eb) => eb.or([eb('expires_at', '<=', new Date()), eb('last_seen_at', '<=', idleBefore)])).execute();
}
