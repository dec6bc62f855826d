// Waiting for a run or a recording to reach an end, without polling: the change announces itself in
// its own transaction (on PostgreSQL a NOTIFY, delivered to every process of the cluster once the
// transaction commits; on the embedded store, which has one process, at once: a reader queues
// behind the committing transaction on its one connection). A waiter also wakes after a while by
// itself, so a missed notice costs a delay, never an answer.
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { Trx } from '../platform/db/database.ts';

export const SETTLED_CHANNEL = 'hark_settled';
/** Heard when notices may have been missed (the listening connection was lost): every waiter looks again. */
const ANY = '*';

const local = new EventEmitter();
local.setMaxListeners(0);

/** Says, inside the transaction of the change, that `id` (a run or a recording) reached an end. */
export async function announceSettled(ctx: Context, trx: Trx, id: string): Promise<void> {
  if (ctx.database.kind === 'postgres') await sql`SELECT pg_notify(${SETTLED_CHANNEL}, ${id})`.execute(trx);
  else local.emit(id);
}

/** What the process's LISTEN on SETTLED_CHANNEL heard (no payload: notices may have been missed). */
export function heardSettled(payload?: string): void {
  local.emit(payload ?? ANY);
}

/** Resolves when one of `ids` is announced, after `ms`, or when `signal` aborts, whichever is first. */
export function waitForSettled(ids: readonly string[], ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const id of [...ids, ANY]) local.off(id, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const id of [...ids, ANY]) local.on(id, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
