// A one-minute window per key (an API key, a session, an address). Decisions are taken in this
// process's memory, so a request never waits on the database; on PostgreSQL the counts are shared
// by every API process: each adds what it counted to `rate_limits` every SYNC_MS and learns the
// total, so the limit holds across processes up to what the others counted since their last sync.
import { sql } from 'kysely';
import type { Db } from '../platform/db/database.ts';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface Window {
  start: number;
  /** The cluster's count when last synced. */
  synced: number;
  /** Counted here since. */
  pending: number;
}

const SYNC_MS = 200;
const PRUNE_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | null = null;
  private syncing = false;
  private lastPrune = 0;

  /** `shared`: the database whose `rate_limits` all processes share, under `namespace`. */
  constructor(
    private readonly limit: number,
    private readonly shared: { db: Db; namespace: string; onError: (error: unknown) => void } | null = null,
    private readonly windowMs = 60_000,
  ) {
    if (shared) {
      this.timer = setInterval(() => void this.sync(), SYNC_MS);
      this.timer.unref();
    }
  }

  take(key: string, now = Date.now()): RateDecision {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (this.windows.size > 100_000) this.prune(now);
      window = { start: now, synced: 0, pending: 0 };
      this.windows.set(key, window);
    }
    window.pending += 1;
    const count = window.synced + window.pending;
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
    };
  }

  /** The decision one more request would get, without counting it. */
  peek(key: string, now = Date.now()): RateDecision {
    const window = this.windows.get(key);
    const current = window && now - window.start < this.windowMs ? window : null;
    const count = current ? current.synced + current.pending : 0;
    return {
      allowed: count < this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: current ? Math.max(1, Math.ceil((current.start + this.windowMs - now) / 1000)) : Math.ceil(this.windowMs / 1000),
    };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Adds the pending counts to the shared table and takes back each key's window and total. */
  private async sync(): Promise<void> {
    if (!this.shared || this.syncing) return;
    const due = [...this.windows].filter(([, window]) => window.pending > 0);
    if (due.length === 0) return;
    this.syncing = true;
    const { db, namespace, onError } = this.shared;
    const sent = due.map(([key, window]) => ({ key: `${namespace}:${key}`, local: key, count: window.pending, window }));
    try {
      const { rows } = await sql<{ key: string; window_start: Date; count: number }>`
        INSERT INTO rate_limits AS r (key, window_start, count)
        SELECT key, now(), count FROM jsonb_to_recordset(${JSON.stringify(sent.map(({ key, count }) => ({ key, count })))}::jsonb) AS t(key text, count int)
        ON CONFLICT (key) DO UPDATE SET
          window_start = CASE WHEN r.window_start <= now() - make_interval(secs => ${this.windowMs / 1000}) THEN now() ELSE r.window_start END,
          count = CASE WHEN r.window_start <= now() - make_interval(secs => ${this.windowMs / 1000}) THEN excluded.count ELSE r.count + excluded.count END
        RETURNING key, window_start, count`.execute(db);
      const byKey = new Map(rows.map((row) => [row.key, row]));
      for (const { key, count, window } of sent) {
        const row = byKey.get(key);
        if (!row) continue;
        // The total includes what was sent; what arrived meanwhile stays pending.
        window.pending -= count;
        window.synced = row.count;
        window.start = Math.min(Date.now(), new Date(row.window_start).getTime());
      }
      if (Date.now() - this.lastPrune > PRUNE_MS) {
        this.lastPrune = Date.now();
        await sql`DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => ${(2 * this.windowMs) / 1000})`.execute(db);
      }
    } catch (error) {
      onError(error);
    } finally {
      this.syncing = false;
    }
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}
