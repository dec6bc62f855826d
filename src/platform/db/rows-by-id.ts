// Reads of one row by id that arrive together go to the database as one query. Under load most of
// a card's cost is its round trip to the database (the statement, the backend's planning, the
// socket writes on both sides), so the reads that reach here in the same turn of the event loop
// (requests read from the sockets together) are sent as one `WHERE id IN (…)` once that turn
// ends, and each caller gets its own row. Alone, a read waits for nothing but the end of its turn.
// Inside a transaction a read goes straight to it: it must see what the transaction wrote.
import type { Kysely } from 'kysely';
import type { Db, Trx } from './database.ts';

/** The most ids one query carries; more waiting reads are sent as further queries at once. */
const MAX_BATCH = 500;

interface Row {
  id: string;
  workspace_id: string;
}

interface Waiting {
  workspaceId: string;
  resolve: (row: Row | undefined) => void;
  reject: (error: unknown) => void;
}

type Fetch = (ids: string[], workspaceIds: string[]) => Promise<Row[]>;

/** The reads of one table waiting for the end of this turn. */
class Batch {
  private waiting = new Map<string, Waiting[]>();
  private scheduled = false;

  constructor(private readonly fetch: Fetch) {}

  read(id: string, workspaceId: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(id);
      if (list) list.push({ workspaceId, resolve, reject });
      else this.waiting.set(id, [{ workspaceId, resolve, reject }]);
      if (this.waiting.size >= MAX_BATCH) this.send();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.send());
      }
    });
  }

  private send(): void {
    this.scheduled = false;
    const batch = this.waiting;
    if (batch.size === 0) return;
    this.waiting = new Map();
    const workspaceIds = [...new Set([...batch.values()].flatMap((list) => list.map((w) => w.workspaceId)))];
    this.fetch([...batch.keys()], workspaceIds).then(
      (rows) => {
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const [id, list] of batch) {
          const row = byId.get(id);
          // A row is only ever given to a read made in its own workspace.
          for (const w of list) w.resolve(row && row.workspace_id === w.workspaceId ? row : undefined);
        }
      },
      (error: unknown) => {
        for (const list of batch.values()) for (const w of list) w.reject(error);
      },
    );
  }
}

type AnyDb = Kysely<Record<string, Row>>;
const batches = new WeakMap<object, Map<string, Batch>>();

/**
 * A row read by id through a batch of its own `kind` (reads of that kind in the same turn go as
 * one query): `fetch` answers the rows of several ids (each with its id and workspace_id) in one
 * query; a row is given only to a read of its own workspace. Not for reads inside a transaction.
 */
export async function batchedById<R extends Row>(db: Db, kind: string, workspaceId: string, id: string, fetch: (ids: string[], workspaceIds: string[]) => Promise<R[]>): Promise<R | undefined> {
  let kinds = batches.get(db);
  if (!kinds) batches.set(db, (kinds = new Map()));
  let batch = kinds.get(kind);
  if (!batch) kinds.set(kind, (batch = new Batch(fetch)));
  return (await batch.read(id, workspaceId)) as R | undefined;
}

/** The row of `table` with this id in this workspace, if any. */
export async function rowById<R extends Row>(db: Db | Trx, table: string, workspaceId: string, id: string): Promise<R | undefined> {
  const any = db as unknown as AnyDb;
  if (db.isTransaction) {
    return (await any.selectFrom(table).selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst()) as R | undefined;
  }
  return batchedById<R>(db as Db, `table:${table}`, workspaceId, id, async (ids, workspaceIds) => (await any.selectFrom(table).selectAll().where('id', 'in', ids).where('workspace_id', 'in', workspaceIds).execute()) as R[]);
}
