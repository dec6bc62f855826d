// Counts failures per key (an account, an address) in a sliding window kept in the database, so
// every API process sees the same count: past the limit, the key waits until enough of its
// failures leave the window. Keys are stored as SHA-256 digests, not in plain text.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const hashed = (key: string) => createHash('sha256').update(`sign-in:${key}`).digest('base64url');

export class FailureThrottle {
  constructor(
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Counts an attempt as a failure before its password is checked, so attempts made in parallel
   * see each other; `succeeded` takes it back. Returns the seconds to wait when the key already
   * had `limit` failures in the window (the attempt is then not counted), else 0.
   */
  async attempt(db: Db, key: string): Promise<number> {
    const hashedKey = this.key(key);
    const window = sql`make_interval(secs => ${this.windowMs / 1000})`;
    await db.deleteFrom('sign_in_failures').where('failed_at', '<=', sql<Date>`now() - ${window}`).where('key', 'like', `${this.name}:%`).execute();
    await db.insertInto('sign_in_failures').values({ key: hashedKey }).execute();
    // The wait lasts until the newest `limit` failures before this one are down to `limit - 1`.
    const { rows } = await sql<{ wait: number | null }>`
      SELECT ceil(extract(epoch FROM min(failed_at) + ${window} - now()))::int AS wait
      FROM (SELECT failed_at FROM sign_in_failures WHERE key = ${hashedKey} AND failed_at > now() - ${window}
            ORDER BY failed_at DESC LIMIT ${this.limit + 1}) AS recent
      HAVING count(*) > ${this.limit}`.execute(db);
    const wait = rows[0]?.wait;
    if (wait === undefined || wait === null) return 0;
    await this.succeeded(db, key);
    return Math.max(1, wait);
  }

  /** Takes back the failure `attempt` counted last for this key. */
  async succeeded(db: Db, key: string): Promise<void> {
    await sql`DELETE FROM sign_in_failures WHERE ctid = (SELECT ctid FROM sign_in_failures WHERE key = ${this.key(key)} ORDER BY failed_at DESC LIMIT 1)`.execute(db);
  }

  /** Forgets every failure of this key. */
  async clear(db: Db, key: string): Promise<void> {
    await db.deleteFrom('sign_in_failures').where('key', '=', this.key(key)).execute();
  }

  private key(key: string): string {
    return `${this.name}:${hashed(key)}`;
  }
}
