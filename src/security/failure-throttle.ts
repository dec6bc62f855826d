// Counts failures per key (an account, an address) in a sliding window kept in the database, so
// every API process sees the same count: past the limit, the key waits until its oldest failure
// leaves the window. Keys are stored hashed (they are e-mail addresses and client addresses).
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

  /** Seconds to wait before trying again; 0 when allowed. */
  async waitSeconds(db: Db, key: string): Promise<number> {
    const { rows } = await sql<{ wait: number | null }>`
      SELECT ceil(extract(epoch FROM min(failed_at) + make_interval(secs => ${this.windowMs / 1000}) - now()))::int AS wait
      FROM (SELECT failed_at FROM sign_in_failures
            WHERE key = ${this.key(key)} AND failed_at > now() - make_interval(secs => ${this.windowMs / 1000})
            ORDER BY failed_at DESC LIMIT ${this.limit}) AS recent
      HAVING count(*) >= ${this.limit}`.execute(db);
    const wait = rows[0]?.wait;
    return wait === undefined || wait === null ? 0 : Math.max(1, wait);
  }

  /** Counts a failure, and forgets every key's failures older than the window. */
  async fail(db: Db, key: string): Promise<void> {
    await db.insertInto('sign_in_failures').values({ key: this.key(key) }).execute();
    await db.deleteFrom('sign_in_failures').where('failed_at', '<=', sql<Date>`now() - make_interval(secs => ${this.windowMs / 1000})`).where('key', 'like', `${this.name}:%`).execute();
  }

  async clear(db: Db, key: string): Promise<void> {
    await db.deleteFrom('sign_in_failures').where('key', '=', this.key(key)).execute();
  }

  private key(key: string): string {
    return `${this.name}:${hashed(key)}`;
  }
}
