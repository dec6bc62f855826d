// Correcting a transcript: the reviewer's words or segment texts make a new version, the previous
// one kept. The new version goes through the run's redaction (a card number typed in is redacted
// as one heard would be), gets its talk statistics again, and becomes what the run and the
// recording answer with, what search finds and what analysis reads; automatic analysis runs on it
// as on a new transcript. A `version` given with the correction must be the current one (409).
import type { Context } from '../../context.ts';
import { AppError, invalid } from '../../errors.ts';
import { newUuid } from '../../ids.ts';
import { getRun, snapshotOf } from '../../core/runs/runs.ts';
import { transcriptionOptionDefaults } from './transcription-card.ts';
import { applyCorrections, CorrectionError, textOf, type Corrections } from './corrections.ts';
import { redactTranscript } from './redaction.ts';
import { severalSpeakers } from '../../core/transcripts/speakers.ts';
import { ChannelSpeechSchema, talkStats, type ChannelSpeech } from '../../core/transcripts/talk-stats.ts';
import { readStored } from '../../platform/db/stored-json.ts';
import { transcriptionKind, type TranscriptionRun, type TranscriptionSnapshot } from './transcription-kind.ts';
import { emitEvent } from '../../core/events.ts';
import { transcriptSentiment } from '../../core/transcripts/sentiment.ts';
import { keyPhrases } from '../../core/transcripts/key-phrases.ts';
import { ChapterSchema, retitledChapters, wholeCall } from '../../core/transcripts/chapters.ts';
import { Type } from '@sinclair/typebox';
import { TRANSCRIPT_COLUMNS, transcriptParts, type TranscriptRow } from '../../core/transcripts/transcript.ts';


export interface CorrectionInput extends Corrections {
  /** The version the corrections were made on; refused when another has come since. */
  version?: number | undefined;
}

export async function correctTranscript(ctx: Context, workspaceId: string, runId: string, input: CorrectionInput, by: string | null): Promise<TranscriptRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const found = (await getRun(trx, transcriptionKind, workspaceId, runId)) as TranscriptionRun;
    // One correction of a run at a time: the second waits and then sees the first's version.
    const run = (await trx.selectFrom('transcription_runs').selectAll().where('id', '=', found.id).forNoKeyUpdate().executeTakeFirstOrThrow()) as TranscriptionRun;
    if (run.status !== 'completed' || !run.transcript_id) throw new AppError('run_not_completed', `the run is ${run.status}; its transcript can be corrected once it is completed`);
    const current = await trx.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('id', '=', run.transcript_id).executeTakeFirstOrThrow();
    if (input.version !== undefined && input.version > current.version) throw invalid('version', `the transcript has no version ${input.version} yet (it is at version ${current.version})`);
    if (input.version !== undefined && input.version !== current.version) {
      throw new AppError('transcript_changed', `these corrections were made on version ${input.version}; the transcript is at version ${current.version}: read it again`);
    }
    let corrected;
    try {
      corrected = applyCorrections(transcriptParts(current), input);
    } catch (error) {
      if (error instanceof CorrectionError) throw invalid(error.path || 'body', error.message);
      throw error;
    }
    const options = { ...transcriptionOptionDefaults, ...(snapshotOf(transcriptionKind, run) as TranscriptionSnapshot).options };
    const several = severalSpeakers(corrected.segments);
    const { transcript } = redactTranscript({ language: current.language, ...corrected }, options.redact, several);
    const id = newUuid();
    await trx.updateTable('transcripts').set({ current: false }).where('id', '=', current.id).execute();
    const row = await trx
      .insertInto('transcripts')
      .values({
        id,
        workspace_id: current.workspace_id,
        transcription_run_id: current.transcription_run_id,
        recording_id: current.recording_id,
        language: current.language,
        duration_seconds: current.duration_seconds,
        text: textOf(transcript.segments),
        segments: JSON.stringify(transcript.segments),
        words: JSON.stringify(transcript.words),
        summary: current.summary,
        // Talk statistics again, counting words where the measured sound is, as the first version did.
        // Talk statistics are the first version's (counted from the words as recognised, before
        // redaction) unless words were timed again, when they are counted from the corrected words.
        stats: corrected.retimed ? JSON.stringify(talkStats(transcript.segments, transcript.words, current.duration_seconds, soundOf(current))) : JSON.stringify(current.stats),
        sound: current.sound === null ? null : JSON.stringify(current.sound),
        sentiment: JSON.stringify(transcriptSentiment(transcript.segments, transcript.words, current.duration_seconds)),
        // What spotting heard is in the audio, which a correction of the text leaves as it is.
        spotted: current.spotted === null ? null : JSON.stringify(current.spotted),
        key_phrases: JSON.stringify(keyPhrases(transcript.segments, transcript.words)),
        // Where the subject changes is the previous version's; each chapter's title is its new text's.
        chapters: JSON.stringify(current.chapters === null ? wholeCall(transcript.segments) : retitledChapters(readStored(Type.Array(ChapterSchema), current.chapters, `transcript ${current.id} chapters`), transcript.segments)),
        version: current.version + 1,
        previous_transcript_id: current.id,
        corrected_by: by,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const updated = (await trx.updateTable('transcription_runs').set({ transcript_id: id }).where('id', '=', run.id).returningAll().executeTakeFirstOrThrow()) as TranscriptionRun;
    await emitEvent(ctx, trx, workspaceId, 'transcript.corrected', { transcript_id: id, transcription_run_id: run.id, recording_id: run.recording_id, version: row.version, previous_transcript_id: current.id });
    await ctx.pipeline.transcriptReady(trx, updated);
    return row;
  });
}

/** A transcript's measured sound per channel, when it was measured. */
function soundOf(transcript: TranscriptRow): ChannelSpeech | undefined {
  return transcript.sound === null ? undefined : (readStored(ChannelSpeechSchema, transcript.sound, `transcript ${transcript.id} sound`) as ChannelSpeech);
}

/** Every version of a run's transcript, oldest first (ids, numbers, who and when). */
export async function transcriptVersions(ctx: Context, workspaceId: string, runId: string) {
  const run = await getRun(ctx.db, transcriptionKind, workspaceId, runId);
  return ctx.db
    .selectFrom('transcripts')
    .select(['id', 'version', 'previous_transcript_id', 'corrected_by', 'current', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('transcription_run_id', '=', run.id)
    .orderBy('version')
    .execute();
}

/** One version of a run's transcript. */
export async function transcriptVersion(ctx: Context, workspaceId: string, runId: string, version: number): Promise<TranscriptRow> {
  const run = await getRun(ctx.db, transcriptionKind, workspaceId, runId);
  const row = await ctx.db.selectFrom('transcripts').select(TRANSCRIPT_COLUMNS).where('workspace_id', '=', workspaceId).where('transcription_run_id', '=', run.id).where('version', '=', version).executeTakeFirst();
  if (!row) throw new AppError('not_found', `the run's transcript has no version ${version}`);
  return row;
}
