// The transcription kind of run: waits for the recording's preparation, runs the scenario's
// transcription engine on the prepared audio (or on each channel, in parallel), labels speakers,
// redacts personal data, and stores the transcript and its talk statistics with the completion.
import os from 'node:os';
import { Type, type Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import { RetrySettings } from '../../core/scenarios/scenario-card.ts';
import { presentTranscriptionRun, TranscriptionOptions, transcriptionOptionDefaults } from './transcription-card.ts';
import type { Context } from '../../context.ts';
import type { TranscriptionRunsTable } from '../../platform/db/tables.ts';
import { audioExpired, type Recording } from '../../core/recordings/recordings.ts';
import { EngineError } from '../../platform/engine-error.ts';
import { openPcmFile } from '../../platform/media/pcm-file.ts';
import { loadTranscriptionEngine, transcriptionEngine } from '../../engines/transcription/registry.ts';
import type { TranscriptionEngine, TranscriptionRequest, TranscriptionResult } from '../../engines/transcription/types.ts';
import { newUuid } from '../../ids.ts';
import type { RunKind } from '../../core/runs/run-kind.ts';
import { summarizeTranscript } from './transcript-summary.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import { discardRedactedAudio, redactAudio, replaceUnredactedAudio, storeRedactedAudio, type RedactedAudio } from './audio-redaction.ts';
import { formatTranscript } from './formatting.ts';
import { redactTranscript } from './redaction.ts';
import { mergeChannels, separateChannels, severalSpeakers, speakerLabels, type SpeakerTranscript } from '../../core/transcripts/speakers.ts';
import { talkStats } from '../../core/transcripts/talk-stats.ts';
import { speechSpans, type Span } from '../../core/transcripts/voice-activity.ts';
import { inParallel } from './parallel.ts';
import { transcriptSentiment, type TranscriptSentiment } from '../../core/transcripts/sentiment.ts';
import { vocabularyCasing, vocabularyTerms } from './vocabulary.ts';
import { keyPhrases, type KeyPhrase } from '../../core/transcripts/key-phrases.ts';
import { transcriptChapters, wholeCall, type Chapter } from '../../core/transcripts/chapters.ts';
import { embedSentences } from '../../engines/text/sentence-encoder.ts';
import { type Spotted } from '../../core/transcripts/transcript.ts';
import { type TalkStats } from '../../core/transcripts/talk-stats.ts';

export type TranscriptionRun = Selectable<TranscriptionRunsTable>;

export const TranscriptionSnapshot = Type.Object({
  id: Type.String(),
  engine: Type.String(),
  model: Type.String(),
  language: Type.String(),
  options: TranscriptionOptions,
  retry: RetrySettings,
});
export type TranscriptionSnapshot = Static<typeof TranscriptionSnapshot>;

/** A safety net: preparation's completion sends the job of every waiting run itself, except a run
 * committed between that check and the preparation's own commit. */
const PREPARATION_POLL_SECONDS = 3;

/**
 * Engines are loaded once per process and engine/server. Only the openai engine calls a server: a
 * local engine is one per process whatever a scenario's base_url says, so its decode slots (one
 * per core) are the process's, not one set per scenario.
 */
const engines = new WeakMap<Context, Map<string, Promise<TranscriptionEngine>>>();
function engineFor(ctx: Context, snapshot: TranscriptionSnapshot): Promise<TranscriptionEngine> {
  const cache = engines.get(ctx) ?? new Map<string, Promise<TranscriptionEngine>>();
  engines.set(ctx, cache);
  const baseUrl = transcriptionEngine(snapshot.engine).remote ? (snapshot.options.base_url ?? null) : null;
  const key = `${snapshot.engine}|${baseUrl ?? ''}`;
  let engine = cache.get(key);
  if (!engine) {
    engine = loadTranscriptionEngine(snapshot.engine, { config: ctx.config, baseUrl });
    cache.set(key, engine);
    engine.catch(() => cache.delete(key));
  }
  return engine;
}

export interface CallTranscript {
  transcript: SpeakerTranscript;
  stats: TalkStats;
  audio: { recording: Recording; files: RedactedAudio } | null;
  /** Where each channel has sound, by channel. */
  sound: Record<number, Span[]>;
  sentiment: TranscriptSentiment;
  /** The scenario's phrases found in the audio, by channel; null when it spots none. */
  spotted: Spotted[] | null;
  keyPhrases: KeyPhrase[];
  chapters: Chapter[];
}

export const transcriptionKind: RunKind<TranscriptionRun, TranscriptionSnapshot, Recording, CallTranscript> = {
  name: 'transcription',
  table: 'transcription_runs',
  job: 'transcribe',
  idKind: 'transcriptionRun',
  event: 'transcription_run',
  snapshotSchema: TranscriptionSnapshot,

  async gate(ctx, run) {
    const recording = await ctx.db.selectFrom('recordings').selectAll().where('id', '=', run.recording_id).executeTakeFirst();
    if (!recording) return { fail: new EngineError('recording_failed', 'the recording was deleted', false) };
    if (recording.status === 'queued' || recording.status === 'processing') return { wait: PREPARATION_POLL_SECONDS };
    if (audioExpired(recording)) return { fail: new EngineError('audio_expired', 'the recording is expired', false) };
    if (recording.status !== 'completed') return { fail: new EngineError('recording_failed', `the recording is ${recording.status}`, false) };
    return { input: recording };
  },

  async execute(ctx, _run, snapshot, recording, control) {
    const engine = await engineFor(ctx, snapshot);
    const options = { ...transcriptionOptionDefaults, ...snapshot.options };
    const keys = recordingKeys(recording.workspace_id, recording.id);
    const request = (audioPath: string): TranscriptionRequest => ({
      audioPath,
      durationSeconds: recording.duration_seconds ?? 0,
      language: snapshot.language,
      model: snapshot.model,
      wordTimestamps: snapshot.options.word_timestamps,
      ...(snapshot.options.prompt ? { prompt: snapshot.options.prompt } : {}),
      ...(options.vocabulary.length > 0 ? { vocabulary: vocabularyTerms(options.vocabulary) } : {}),
      ...(options.spot.length > 0 ? { spot: options.spot } : {}),
    });
    const channels = separateChannels(options.channels, recording.channels);
    const decodeStarted = performance.now();
    let results: TranscriptionResult[];
    if (channels === 0) {
      results = [await ctx.blobs.withLocalFile(keys.prepared, (audioPath) => engine.transcribe(request(audioPath), control))];
    } else {
      // Channels are decoded side by side, as many at once as the machine has cores; one that
      // fails stops the others.
      const done = new Array<number>(channels).fill(0);
      const siblings = new AbortController();
      const signal = AbortSignal.any([control.signal, siblings.signal]);
      results = await inParallel(channels, os.availableParallelism(), (channel) =>
        ctx.blobs.withLocalFile(keys.channel(channel), (audioPath) =>
          engine.transcribe(request(audioPath), {
            signal,
            onProgress: (fraction) => {
              done[channel] = fraction;
              control.onProgress(done.reduce((sum, f) => sum + f, 0) / channels);
            },
          }),
        ).catch((error: unknown) => {
          siblings.abort(error);
          throw error;
        }),
      );
    }
    for (const result of results) {
      for (const [phase, seconds] of Object.entries(result.timings ?? {})) ctx.metrics.decodeSeconds.inc({ engine: engine.name, phase }, seconds);
    }
    if (recording.duration_seconds) ctx.metrics.realTimeFactor.observe({ engine: engine.name }, (performance.now() - decodeStarted) / 1000 / recording.duration_seconds);
    // The scenario names the channels of calls recorded on several; a mono (or mixed) call's one
    // channel holds everyone, so it is named only by the recording's own metadata.
    const labels = speakerLabels(Math.max(1, channels), channels >= 2 ? options.speaker_labels : {}, options.speaker_labels_field, recording.metadata);
    const merged = mergeChannels(results, labels);
    const spotted = options.spot.length > 0 ? results.flatMap((result, channel) => (result.spotted ?? []).map((found) => ({ ...found, channel, speaker: labels[channel] ?? `channel_${channel}` }))).sort((a, b) => a.start - b.start || a.channel - b.channel) : null;
    // Where each channel has sound, so that silence a recogniser folded into a word is not talk.
    const sound: Record<number, Span[]> = {};
    for (let channel = 0; channel < Math.max(1, channels); channel++) {
      sound[channel] = await ctx.blobs.withLocalFile(channels === 0 ? keys.prepared : keys.channel(channel), async (audioPath) => {
        const pcm = openPcmFile(audioPath);
        try {
          return speechSpans(pcm);
        } finally {
          pcm.close();
        }
      });
    }
    // Statistics from the words as recognised (a redacted number is many words said); redaction
    // before anything is stored, summarised or sent on.
    const stats = talkStats(merged.segments, merged.words, recording.duration_seconds, sound);
    const redacted = redactTranscript(merged, options.redact, severalSpeakers(merged.segments));
    const spans = redacted.spans;
    // Engines that punctuate (whisper.cpp, OpenAI-compatible servers) are left as they are.
    const descriptor = transcriptionEngine(snapshot.engine);
    const transcript = options.format && descriptor.unformatted ? formatTranscript(redacted.transcript, severalSpeakers(merged.segments), vocabularyCasing(options.vocabulary), await descriptor.sentenceOdds?.()) : redacted.transcript;
    const audio = options.redact_audio && options.redact.length > 0 ? { recording, files: await redactAudio(ctx, recording, spans, options.keep_original_audio) } : null;
    // Scored on the text as stored (formatted, redacted).
    const sentiment = transcriptSentiment(transcript.segments, transcript.words, recording.duration_seconds);
    // Without the sentence encoder (it could not be loaded: the process logs why) the call is one chapter; the transcript is not lost for it.
    const chapters = options.chapters ? await transcriptChapters(transcript.segments, embedSentences).catch(() => wholeCall(transcript.segments)) : wholeCall(transcript.segments);
    return { transcript, stats, audio, sound, sentiment, spotted, keyPhrases: keyPhrases(transcript.segments, transcript.words), chapters };
  },

  async persist(ctx, trx, run, snapshot, recording, { transcript, stats, audio, sound, sentiment, spotted, keyPhrases, chapters }) {
    const summary = snapshot.options.summary ? await summarizeTranscript(transcript) : null;
    const transcriptId = newUuid();
    await trx
      .insertInto('transcripts')
      .values({
        id: transcriptId,
        workspace_id: run.workspace_id,
        transcription_run_id: run.id,
        recording_id: run.recording_id,
        language: transcript.language,
        duration_seconds: recording.duration_seconds,
        text: transcript.text,
        segments: JSON.stringify(transcript.segments),
        words: JSON.stringify(snapshot.options.word_timestamps ? transcript.words : []),
        summary,
        stats: JSON.stringify(stats),
        sound: JSON.stringify(sound),
        sentiment: JSON.stringify(sentiment),
        spotted: spotted === null ? null : JSON.stringify(spotted),
        key_phrases: JSON.stringify(keyPhrases),
        chapters: JSON.stringify(chapters),
      })
      .execute();
    if (audio) await storeRedactedAudio(ctx, trx, recording, audio.files);
    return { transcript_id: transcriptId };
  },

  async settle(ctx, { audio }, committed) {
    if (!audio) return;
    if (committed) await replaceUnredactedAudio(ctx, audio.recording, audio.files);
    else await discardRedactedAudio(ctx, audio.files);
  },

  present: presentTranscriptionRun,
};
