// What both kinds of scenario share: reading, listing, creating and updating (with "at most one
// automatic scenario per workspace"), deleting, and finding the automatic or first one. Each kind
// gives its table, id kind, row mapping and columns.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Context } from '../../context.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import type { RowWindow } from '../cursor.ts';

type Table = 'transcription_scenarios' | 'analysis_scenarios';
interface ScenarioColumns {
  id: string;
  workspace_id: string;
  auto: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
  [column: string]: unknown;
}

export interface ScenarioKind<Scenario> {
  table: Table;
  idKind: 'transcriptionScenario' | 'analysisScenario';
  noun: string;
  fromRow(row: never): Scenario;
}

/** The one place the scenario tables are seen through their shared columns. */
const view = (db: Db | Trx) => db as unknown as Kysely<Record<Table, ScenarioColumns>> | Transaction<Record<Table, ScenarioColumns>>;
const map = <S>(kind: ScenarioKind<S>, row: unknown): S => kind.fromRow(row as never);

export async function getScenario<S>(db: Db | Trx, kind: ScenarioKind<S>, workspaceId: string, id: string): Promise<S> {
  const row = isId(kind.idKind, id) ? await view(db).selectFrom(kind.table).selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound(`${kind.noun} ${id}`);
  return map(kind, row);
}

/** A workspace's scenarios of a kind, oldest first; `window` takes a page of them. */
export async function listScenarios<S>(db: Db, kind: ScenarioKind<S>, workspaceId: string, window?: RowWindow): Promise<S[]> {
  let query = view(db).selectFrom(kind.table).selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id');
  if (window) query = query.offset(window.start).limit(window.take);
  const rows = await query.execute();
  return rows.map((row) => map(kind, row));
}

const nextVersion = sql<number>`version + 1`;

async function clearOtherAuto(trx: Trx, table: Table, workspaceId: string, keep: string): Promise<void> {
  await view(trx).updateTable(table).set({ auto: false, version: nextVersion, updated_at: new Date() }).where('workspace_id', '=', workspaceId).where('auto', '=', true).where('id', '!=', keep).execute();
}

/**
 * Inserts (no id) or updates (an id) a scenario's columns; turning `auto` on turns it off on the
 * others. An update with `edited` (the version the client read) is refused with 409
 * scenario_changed, and changes nothing, once the scenario is at another version.
 */
export async function saveScenario<S>(ctx: Context, kind: ScenarioKind<S>, workspaceId: string, columns: Record<string, unknown> & { auto: boolean }, id?: string, edited?: number): Promise<S> {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const target = id ?? newId(kind.idKind);
    if (columns.auto) {
      // One scenario taking `auto` at a time per workspace: a second waits, then turns this one's off.
      await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forNoKeyUpdate().execute();
      await clearOtherAuto(trx, kind.table, workspaceId, target);
    }
    const values = { ...columns, updated_at: new Date() };
    if (!id) return view(trx).insertInto(kind.table).values({ ...values, id: target, workspace_id: workspaceId } as never).returningAll().executeTakeFirstOrThrow();
    let update = view(trx).updateTable(kind.table).set({ ...values, version: nextVersion }).where('workspace_id', '=', workspaceId).where('id', '=', id);
    if (edited !== undefined) update = update.where('version', '=', edited);
    // Values the scenario has already (an editor saving its whole draft) write nothing and keep its
    // version: another client's edit made on that version still applies. (jsonb compares by value.)
    update = update.where(sql<boolean>`(${sql.join(Object.entries(columns).map(([column, value]) => sql`${sql.ref(column)} IS DISTINCT FROM ${value}`), sql` OR `)})`);
    const updated = await update.returningAll().executeTakeFirst();
    if (updated) return updated;
    const now = await view(trx).selectFrom(kind.table).selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    if (!now) throw notFound(`${kind.noun} ${id}`);
    if (edited === undefined || now.version === edited) return now;
    throw scenarioChanged(kind.noun, edited, now.version as number);
  });
  return map(kind, row);
}

/**
 * Applies a change to a scenario: with `version` (the one the client read) only while the scenario
 * is still at it; a change of nothing writes nothing and keeps the version. `columnsFor` checks the
 * change against the scenario as it is and gives the columns to write.
 */
export async function updateScenario<S extends { version: number }, I extends object>(
  ctx: Context,
  kind: ScenarioKind<S>,
  workspaceId: string,
  id: string,
  input: I & { version?: number | undefined },
  columnsFor: (change: I, current: S) => Promise<Record<string, unknown> & { auto: boolean }>,
): Promise<S> {
  const current = await getScenario(ctx.db, kind, workspaceId, id);
  const { version: edited, ...change } = input;
  if (edited !== undefined && edited !== current.version) throw scenarioChanged(kind.noun, edited, current.version);
  if (Object.values(change).every((value) => value === undefined)) return current;
  return saveScenario(ctx, kind, workspaceId, await columnsFor(change as I, current), id, edited);
}

/** The refusal of an edit made on a version the scenario has left. */
const scenarioChanged = (noun: string, edited: number, now: number): AppError =>
  new AppError('scenario_changed', `this edit was made on version ${edited} of the ${noun}; it is at version ${now}: read it again and apply the change to that`);

export async function deleteScenario<S>(ctx: Context, kind: ScenarioKind<S>, workspaceId: string, id: string): Promise<void> {
  await getScenario(ctx.db, kind, workspaceId, id);
  await view(ctx.db).deleteFrom(kind.table).where('id', '=', id).execute();
}

/** The workspace's automatic scenario, or with `orFirst` its oldest one. */
export async function pipelineScenario<S>(trx: Trx, kind: ScenarioKind<S>, workspaceId: string, orFirst: boolean): Promise<S | null> {
  const auto = await view(trx).selectFrom(kind.table).selectAll().where('workspace_id', '=', workspaceId).where('auto', '=', true).executeTakeFirst();
  if (auto) return map(kind, auto);
  if (!orFirst) return null;
  const first = await view(trx).selectFrom(kind.table).selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').executeTakeFirst();
  return first ? map(kind, first) : null;
}
