// Call categories: a workspace's named rules (category-rule.ts), evaluated on each recording's new
// transcript (a finished run, or a corrected version) and on demand over past recordings. A rule
// that asks what was meant (`similar_to`) reads the transcript's segment vectors, made on first
// need and kept with it. What a
// recording meets is kept per recording (recording_categories: filter the list with `category`),
// and a `recording.categorized` event names them.
import { isDeepStrictEqual } from 'node:util';
import type { Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import { emitEvent } from '../../core/events.ts';
import { getRecording } from '../../core/recordings/recordings.ts';
import { AppError, invalid, notFound } from '../../errors.ts';
import { isId, newId } from '../../ids.ts';
import type { Db, Trx } from '../../platform/db/database.ts';
import type { JobHandler } from '../../platform/queue/queue.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import type { CategoriesTable } from '../../platform/db/tables.ts';
import { CategoryRuleSchema, meets, similarTexts, type CategoryRule } from './category-rule.ts';
import { segmentVectors } from '../../core/transcripts/segment-vectors.ts';
import { embedSentences } from '../../engines/text/sentence-encoder.ts';
import { latestTranscripts, speakerSentimentOf, TRANSCRIPT_COLUMNS, transcriptParts, transcriptSpotted, transcriptStats, type TranscriptRow } from '../../core/transcripts/transcript.ts';

type CategoryRow = Selectable<CategoriesTable>;

export interface Category {
  id: string;
  name: string;
  rule: CategoryRule;
  created_at: Date;
  updated_at: Date;
}

/** At most this many categories a workspace (each is evaluated on every transcript). */
const MAX_CATEGORIES = 100;

const toCategory = (row: CategoryRow): Category => ({ id: row.id, name: row.name, rule: readStored(CategoryRuleSchema, row.rule, `category ${row.id} rule`), created_at: row.created_at, updated_at: row.updated_at });

/** The workspace's categories, each with how many recordings meet it now (their latest transcript; as the list's `category` filter finds them). */
export async function listCategories(ctx: Context, workspaceId: string): Promise<(Category & { recordings: number })[]> {
  const rows = await ctx.db
    .selectFrom('categories')
    .selectAll()
    .select((eb) => eb.selectFrom('recording_categories as rc').select((c) => c.fn.countAll<string>().as('n')).whereRef('rc.category_id', '=', 'categories.id').as('recordings'))
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...toCategory(row), recordings: Number(row.recordings ?? 0) }));
}

export async function getCategory(ctx: Context, workspaceId: string, id: string): Promise<Category> {
  const row = isId('category', id) ? await ctx.db.selectFrom('categories').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound(`category ${id}`);
  return toCategory(row);
}

/** What the schema cannot say of a rule: a phrase or a meant sentence has a word, a speaker is not blank. */
function checkRule(rule: CategoryRule): CategoryRule {
  const hasWord = (text: string): boolean => /[\p{L}\p{N}]/u.test(text);
  rule.conditions.forEach((condition, c) => {
    const at = `rule/conditions/${c}`;
    if ('speaker' in condition && condition.speaker !== undefined && condition.speaker.trim() === '') throw invalid(`${at}/speaker`, 'must not be blank');
    if (condition.type === 'phrase') condition.phrases.forEach((phrase, p) => {
      if (!hasWord(phrase)) throw invalid(`${at}/phrases/${p}`, 'must contain a word');
    });
    if (condition.type === 'similar_to' && !hasWord(condition.text)) throw invalid(`${at}/text`, 'must contain a word');
    if (condition.type === 'talk' && condition.speaker !== undefined && (condition.metric === 'silence_seconds' || condition.metric === 'overlap_seconds')) {
      throw invalid(`${at}/speaker`, `${condition.metric} is the call's, not a speaker's: leave speaker out`);
    }
  });
  return rule;
}

export async function createCategory(ctx: Context, workspaceId: string, input: { name: string; rule: CategoryRule }): Promise<Category> {
  const name = input.name.trim();
  if (!name) throw invalid('name', 'must not be blank');
  checkRule(input.rule);
  const row = await ctx.db.transaction().execute(async (trx) => {
    // The workspace's row locked: categories created at once are counted one after the other.
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forNoKeyUpdate().executeTakeFirst();
    const count = await trx.selectFrom('categories').select((eb) => eb.fn.countAll<string>().as('n')).where('workspace_id', '=', workspaceId).executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_CATEGORIES) throw new AppError('category_limit_reached', `a workspace has at most ${MAX_CATEGORIES} categories: delete one first`);
    return trx.insertInto('categories').values({ id: newId('category'), workspace_id: workspaceId, name, rule: JSON.stringify(input.rule) }).returningAll().executeTakeFirstOrThrow().catch(nameTaken(name));
  });
  return toCategory(row);
}

export async function updateCategory(ctx: Context, workspaceId: string, id: string, input: { name?: string | undefined; rule?: CategoryRule | undefined }): Promise<Category> {
  const current = await getCategory(ctx, workspaceId, id);
  if (input.name !== undefined && !input.name.trim()) throw invalid('name', 'must not be blank');
  if (input.rule) checkRule(input.rule);
  // The name and rule it has already (an editor saving unchanged) write nothing: `updated_at` stays.
  const name = input.name?.trim() ?? current.name;
  if (name === current.name && (input.rule === undefined || isDeepStrictEqual(input.rule, current.rule))) return current;
  const row = await ctx.db
    .updateTable('categories')
    .set({ name: input.name?.trim() ?? current.name, rule: JSON.stringify(input.rule ?? current.rule), updated_at: new Date() })
    .where('id', '=', current.id)
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(nameTaken(input.name?.trim() ?? current.name));
  return toCategory(row);
}

/** A name is one category's a workspace, whatever its case (a unique index: two requests at once cannot both take it). */
const nameTaken = (name: string) => (error: unknown): never => {
  if ((error as { code?: string }).code === '23505') throw new AppError('category_name_taken', `${JSON.stringify(name)} is the name of another category (names are compared whatever their case): choose another`);
  throw error;
};

export async function deleteCategory(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const current = await getCategory(ctx, workspaceId, id);
  await ctx.db.deleteFrom('categories').where('id', '=', current.id).execute();
}

/** Vectors of the `similar_to` texts rules were written with, kept per process (a rule's text is embedded once, not per call). */
const textVectors = new Map<string, number[]>();
const MAX_TEXT_VECTORS = 1_000;

async function vectorsOf(texts: string[]): Promise<Map<string, number[]>> {
  const found = new Map(texts.flatMap((text) => (textVectors.has(text) ? [[text, textVectors.get(text)!] as const] : [])));
  const missing = texts.filter((text) => !found.has(text));
  if (missing.length > 0) {
    const made = await embedSentences(missing);
    if (textVectors.size + missing.length > MAX_TEXT_VECTORS) textVectors.clear();
    made.forEach((vector, i) => {
      found.set(missing[i]!, vector);
      textVectors.set(missing[i]!, vector);
    });
  }
  return found;
}

/** The categories a transcript meets, of those given (its segment vectors made and kept through `db` when a rule needs them). */
async function categoriesMet(db: Db | Trx, categories: readonly Category[], transcript: TranscriptRow): Promise<string[]> {
  const parts = transcriptParts(transcript);
  const sentiment = speakerSentimentOf(transcript, parts);
  const texts = similarTexts(categories.map((category) => category.rule));
  const meaning = texts.length > 0 ? { segments: await segmentVectors(db, transcript, parts.segments, embedSentences), texts: await vectorsOf(texts) } : undefined;
  // Spotted phrases are of the audio as first transcribed: a corrected version's words are the team's.
  const spotted = transcript.version === 1 ? transcriptSpotted(transcript) : [];
  const input = { ...parts, spotted, stats: transcriptStats(transcript, parts), sentiment, ...(meaning ? { meaning } : {}) };
  return categories.filter((category) => meets(category.rule, input)).map((category) => category.id);
}

/** The recording's categories become `met`, those of `transcript`; the event names them. */
async function writeCategories(ctx: Context, trx: Trx, transcript: TranscriptRow, met: string[]): Promise<void> {
  await trx.deleteFrom('recording_categories').where('recording_id', '=', transcript.recording_id).execute();
  if (met.length > 0) {
    await trx
      .insertInto('recording_categories')
      .values(met.map((category_id) => ({ recording_id: transcript.recording_id, category_id, workspace_id: transcript.workspace_id, transcript_id: transcript.id })))
      // An evaluation over past calls may have written the same pair meanwhile.
      .onConflict((oc) => oc.columns(['recording_id', 'category_id']).doUpdateSet((eb) => ({ transcript_id: eb.ref('excluded.transcript_id') })))
      .execute();
  }
  await emitEvent(ctx, trx, transcript.workspace_id, 'recording.categorized', { recording_id: transcript.recording_id, transcript_id: transcript.id, categories: met });
}

/**
 * Evaluates every category of the workspace on a recording's new transcript, in the transaction
 * that made it: the recording's categories become what this transcript meets. When a category
 * asks what was meant (`similar_to`), the sentences must be embedded first, which is not done
 * inside a transaction: the transcript is categorised by a `categorize` job once it is stored.
 */
export async function categorize(ctx: Context, trx: Trx, transcriptId: string): Promise<void> {
  const transcript = await trx.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', transcriptId).executeTakeFirst();
  if (!transcript) return;
  const categories = (await trx.selectFrom('categories').selectAll().where('workspace_id', '=', transcript.workspace_id).execute()).map(toCategory);
  if (categories.length === 0) return;
  if (similarTexts(categories.map((c) => c.rule)).length > 0) {
    await ctx.queue.send('categorize', { transcriptId }, { trx });
    return;
  }
  await writeCategories(ctx, trx, transcript, await categoriesMet(trx, categories, transcript));
}

/** Whether a transcript is its recording's latest (a newer one is categorised on its own). */
async function isLatest(db: Db | Trx, transcript: TranscriptRow): Promise<boolean> {
  return (await latestTranscripts(db, transcript.workspace_id, [transcript.recording_id])).get(transcript.recording_id)?.id === transcript.id;
}

/** categorize: a new transcript's categories when one asks what was meant; its vectors are made (and kept) before a short transaction writes what it meets. */
export function categorizeJob(ctx: Context): JobHandler<'categorize'> {
  return {
    name: 'categorize',
    settings: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 900 },
    concurrency: 1,
    async handle({ transcriptId }) {
      const transcript = await ctx.db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', transcriptId).executeTakeFirst();
      if (!transcript || !(await isLatest(ctx.db, transcript))) return;
      const categories = await listCategories(ctx, transcript.workspace_id);
      const met = await categoriesMet(ctx.db, categories, transcript);
      await ctx.db.transaction().execute(async (trx) => {
        // Categories changed meanwhile are read again: a deleted one is not written back.
        const still = new Set((await trx.selectFrom('categories').select('id').where('workspace_id', '=', transcript.workspace_id).execute()).map((c) => c.id));
        if (await isLatest(trx, transcript)) await writeCategories(ctx, trx, transcript, met.filter((id) => still.has(id)));
      });
    },
  };
}

/** At most this many recordings an evaluation over past calls reads, newest first, a page at a time. */
const MAX_EVALUATED = 10_000;
const PAGE = 250;

/**
 * One category over the latest transcript of each recording (the newest 10,000): the recordings
 * read lose or gain it; others keep what they had. Each page is evaluated outside any transaction
 * (sentences may be embedded), then written in a short one for the transcripts still current;
 * each recording that gains or loses the category gets a `recording.categorized` event.
 */
export async function evaluateCategory(ctx: Context, workspaceId: string, id: string): Promise<{ recordings: number; matched: number }> {
  const category = await getCategory(ctx, workspaceId, id);
  let recordings = 0;
  let matched = 0;
  let before: number | null = null;
  // The current transcript of each recording, newest recordings first (by their transcript).
  const currentTranscripts = (db: Db | Trx) =>
    db
      .selectFrom('transcripts as t')
      .where('t.workspace_id', '=', workspaceId)
      .where('t.current', '=', true)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('transcripts as newer').select('newer.id').whereRef('newer.recording_id', '=', 't.recording_id').where('newer.current', '=', true).whereRef('newer.seq', '>', 't.seq'))));
  while (recordings < MAX_EVALUATED) {
    const rows = await currentTranscripts(ctx.db)
      .selectAll('t')
      .$if(before !== null, (q) => q.where('t.seq', '<', before!))
      .orderBy('t.seq', 'desc')
      .limit(Math.min(PAGE, MAX_EVALUATED - recordings))
      .execute();
    if (rows.length === 0) break;
    // Evaluated outside any transaction (a rule that asks what was meant embeds sentences)…
    const met = new Set<string>();
    for (const transcript of rows) if ((await categoriesMet(ctx.db, [category], transcript)).length > 0) met.add(transcript.id);
    // …and written for the transcripts still current, so one stored meanwhile is never overwritten by an older one.
    matched += await ctx.db.transaction().execute(async (trx) => {
      const current = await currentTranscripts(trx).select(['t.id', 't.recording_id']).where('t.id', 'in', rows.map((r) => r.id)).execute();
      if (current.length === 0) return 0;
      const metNow = current.filter((t) => met.has(t.id));
      const had = new Set((await trx.selectFrom('recording_categories').select('recording_id').where('category_id', '=', category.id).where('recording_id', 'in', current.map((t) => t.recording_id)).execute()).map((r) => r.recording_id));
      await trx.deleteFrom('recording_categories').where('category_id', '=', category.id).where('recording_id', 'in', current.map((t) => t.recording_id)).execute();
      if (metNow.length > 0) {
        await trx
          .insertInto('recording_categories')
          .values(metNow.map((t) => ({ recording_id: t.recording_id, category_id: category.id, workspace_id: workspaceId, transcript_id: t.id })))
          .onConflict((oc) => oc.columns(['recording_id', 'category_id']).doUpdateSet((eb) => ({ transcript_id: eb.ref('excluded.transcript_id') })))
          .execute();
      }
      // A recording that gained or lost the category says so, with all it now has, as a new transcript's does.
      for (const t of current.filter((t) => had.has(t.recording_id) !== met.has(t.id))) {
        const categories = await trx.selectFrom('recording_categories as rc').innerJoin('categories as c', 'c.id', 'rc.category_id').select('c.id').where('rc.recording_id', '=', t.recording_id).orderBy('c.created_at').orderBy('c.id').execute();
        await emitEvent(ctx, trx, workspaceId, 'recording.categorized', { recording_id: t.recording_id, transcript_id: t.id, categories: categories.map((c) => c.id) });
      }
      return metNow.length;
    });
    recordings += rows.length;
    before = Number(rows.at(-1)!.seq);
  }
  return { recordings, matched };
}

/** The categories a recording's latest transcript meets. */
export async function categoriesOf(ctx: Context, workspaceId: string, recordingId: string): Promise<{ id: string; name: string; transcript_id: string }[]> {
  await getRecording(ctx, workspaceId, recordingId); // 404 for a recording this workspace lacks
  return ctx.db
    .selectFrom('recording_categories as rc')
    .innerJoin('categories as c', 'c.id', 'rc.category_id')
    .select(['c.id', 'c.name', 'rc.transcript_id'])
    .where('rc.workspace_id', '=', workspaceId)
    .where('rc.recording_id', '=', recordingId)
    .orderBy('c.created_at')
    .execute();
}
