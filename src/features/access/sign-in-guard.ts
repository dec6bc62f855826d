// Failed sign-ins, kept in the database so every API process sees the same counts. A pair of
// account and address gets a few free failures, then waits twice as long after each further one
// (10 seconds, 20, 40, … up to 15 minutes): someone guessing an owner's password slows only their own address, and the
// owner signing in from anywhere else is never refused. An address failing against many accounts
// waits the same way past a larger allowance. A failure is recorded before the password is
// checked, so guesses sent at once count each other, and taken back when the password was right.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.ts';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Rows are kept this long, for the owner's view of recent failures. */
export const SIGN_IN_FAILURES_KEPT_MS = 24 * 3600_000;
const FREE_PER_PAIR = 3;
const FREE_PER_ADDRESS = 30;
const FIRST_WAIT_SECONDS = 10;
const MAX_WAIT_SECONDS = 15 * 60;

const digest = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Seconds still to wait after `failures` failures, the last `sinceLast` seconds ago. */
export function growingWait(failures: number, free: number, sinceLast: number): number {
  if (failures < free) return 0;
  const wait = Math.min(FIRST_WAIT_SECONDS * 2 ** (failures - free), MAX_WAIT_SECONDS);
  return Math.max(0, Math.ceil(wait - sinceLast));
}

export interface Attempt {
  id: number;
}

export class SignInGuard {
  /**
   * Records an attempt as a failure and returns it, or returns the seconds to wait (nothing
   * recorded) when the pair or the address must wait first.
   */
  async begin(db: Db, email: string, address: string): Promise<Attempt | { wait: number }> {
    const pairKey = `pair:${digest(`${email}\n${address}`)}`;
    const addressKey = digest(address);
    await db.deleteFrom('sign_in_failures').where('failed_at', '<=', new Date(Date.now() - SIGN_IN_FAILURES_KEPT_MS)).execute();
    // Recorded first, then judged by the failures before it: attempts sent at once see each other.
    const { id } = await db.insertInto('sign_in_failures').values({ key: pairKey, address_key: addressKey, address }).returning('id').executeTakeFirstOrThrow();
    const since = sql<Date>`now() - make_interval(secs => ${SIGN_IN_WINDOW_MS / 1000})`;
    const counts = await sql<{ pair: number; pair_since: number | null; address: number; address_since: number | null }>`
      SELECT count(*) FILTER (WHERE key = ${pairKey})::int AS pair,
             extract(epoch FROM now() - max(failed_at) FILTER (WHERE key = ${pairKey}))::float8 AS pair_since,
             count(*)::int AS address,
             extract(epoch FROM now() - max(failed_at))::float8 AS address_since
      FROM sign_in_failures WHERE address_key = ${addressKey} AND failed_at > ${since} AND id < ${id}`.execute(db);
    const row = counts.rows[0]!;
    const wait = Math.max(growingWait(row.pair, FREE_PER_PAIR, row.pair_since ?? 0), growingWait(row.address, FREE_PER_ADDRESS, row.address_since ?? 0));
    if (wait === 0) return { id };
    await db.deleteFrom('sign_in_failures').where('id', '=', id).execute();
    return { wait };
  }

  /** The password was wrong: the failure stays, marked with the account when there is one. */
  async failed(db: Db, attempt: Attempt, accountId: string | null): Promise<void> {
    if (accountId) await db.updateTable('sign_in_failures').set({ account_id: accountId }).where('id', '=', attempt.id).execute();
  }

  /** The password was right: this attempt and the pair's earlier failures are forgotten. */
  async succeeded(db: Db, attempt: Attempt, email: string, address: string): Promise<void> {
    await db.deleteFrom('sign_in_failures').where((eb) => eb.or([eb('id', '=', attempt.id), eb('key', '=', `pair:${digest(`${email}\n${address}`)}`)])).execute();
  }
}
