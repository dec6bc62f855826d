// pocketsphinx: Debian's libpocketsphinx3 with the en-us model, called in-process through koffi
// (binding in ./pocketsphinx-native.ts). Decoders are loaded once and reused, each decoding on
// koffi's thread pool as utterances of at most 2 minutes cut at quiet moments, read from disk a
// chunk at a time, with silences of a second or more shortened (./near-silence.ts). A decoder uses
// one core: a recording with a minute or more left once its long silences are shortened is cut at
// quiet moments into as many pieces as the machine has cores, which are decoded side by side from
// the file's one cepstral mean and joined, so a recording is not waited for at one core's pace. At
// most one decode per core runs in the process, whatever the number of runs, channels or pieces.
import os from 'node:os';
import { Semaphore } from 'async-mutex';
import type { Config } from '../../config.ts';
import { createPocketsphinx, type DecodeTimings, type Pocketsphinx, type PocketsphinxWord } from './pocketsphinx-native.ts';
import { openPcmFile, quietPieces, SAMPLE_RATE } from '../../platform/media/pcm-file.ts';
import { segmentWords } from './segments.ts';
import { gatedSource, withoutLongSilences } from './near-silence.ts';
import { decoderVocabulary, spottingDecoder, VOCABULARY_WEIGHT, writeVocabulary, type DecoderVocabulary, type SpottingDecoder } from './pocketsphinx-vocabulary.ts';
import { EngineError, type SpottedPhrase, type TranscriptionEngine } from './types.ts';

/** The shortest piece worth a decoder of its own. */
const MIN_PIECE_SECONDS = 30;
/** A piece is cut at the quietest 100 ms within this many seconds around the even split. */
const CUT_SEARCH_SECONDS = 10;

/** How many pieces a recording of `samples` is decoded in: one per core, none under MIN_PIECE_SECONDS. */
export function pieceCount(samples: number, cores: number): number {
  return Math.max(1, Math.min(cores, Math.floor(samples / SAMPLE_RATE / MIN_PIECE_SECONDS)));
}

/** Decodes at once in a process: one per core, and no more than the runs the worker may take. */
const decodeSlots = (config: Config) => Math.max(1, Math.min(os.availableParallelism(), config.workerConcurrency));

/** Vocabularies whose idle decoders are kept (the least recently used one's are freed beyond). */
const KEPT_VOCABULARIES = 4;

export function pocketsphinxEngine(config: Config, cores = decodeSlots(config)): TranscriptionEngine {
  /** Idle decoders by vocabulary key ("" for none), the most recently used key last. */
  const idle = new Map<string, Pocketsphinx[]>();
  const slots = new Semaphore(cores);
  const keep = (key: string, decoder: Pocketsphinx) => {
    const own = idle.get(key) ?? [];
    idle.delete(key);
    idle.set(key, [...own, decoder]);
    const vocabularies = [...idle.keys()].filter((k) => k !== '');
    for (const old of vocabularies.slice(0, Math.max(0, vocabularies.length - KEPT_VOCABULARIES))) {
      for (const unused of idle.get(old) ?? []) unused.close();
      idle.delete(old);
    }
  };
  /** Runs `task` on a decoder of its own (one that knows `vocabulary`, or spots), once one of the process's decode slots is free. */
  const withDecoder = <T>(setup: DecoderVocabulary | SpottingDecoder | null, task: (decoder: Pocketsphinx) => Promise<T>): Promise<T> =>
    slots.runExclusive(async () => {
      const key = setup?.key ?? '';
      let decoder = idle.get(key)?.pop();
      if (!decoder) {
        try {
          decoder = createPocketsphinx(!setup ? {} : 'phrases' in setup ? { words: setup.words, spot: setup.phrases } : { words: setup.words, wordWeight: VOCABULARY_WEIGHT });
        } catch (error) {
          throw new EngineError('engine_unavailable', `pocketsphinx could not start: ${(error as Error).message}`, false);
        }
      }
      try {
        return await task(decoder);
      } finally {
        keep(key, decoder);
      }
    });

  return {
    name: 'pocketsphinx',
    async transcribe(request, control) {
      let vocabulary: DecoderVocabulary | null = null;
      let spotting: SpottingDecoder | null = null;
      try {
        if (request.vocabulary?.length) vocabulary = decoderVocabulary(request.vocabulary);
        if (request.spot?.length) spotting = spottingDecoder(request.spot);
      } catch (error) {
        throw new EngineError('vocabulary_unpronounceable', `the scenario's vocabulary or phrases to spot: ${(error as Error).message}`, false);
      }
      const file = openPcmFile(request.audioPath);
      // A cancelled run, or a piece that fails, stops the others before they start or at their
      // next chunk.
      let failed = false;
      const stopIfDone = () => {
        if (control.signal.aborted) throw new EngineError('cancelled', 'the run was cancelled', false);
        if (failed) throw new EngineError('cancelled', 'another piece of the recording failed', false);
      };
      try {
        // Heard with its near-silence as silence and its long silences shortened; the words' times
        // are put back on the recording's own clock.
        const pcm = await withoutLongSilences(gatedSource(file), stopIfDone);
        const onClock = <T extends { start: number; end: number }>(word: T): T => {
          const span = pcm.originalSpan(word.start, word.end);
          return { ...word, start: round(span.start), end: round(span.end) };
        };
        const count = pieceCount(pcm.samples, cores);
        const pieces = count > 1 ? quietPieces(pcm, count, CUT_SEARCH_SECONDS) : [{ start: 0, length: pcm.samples }];
        const done = pieces.map(() => 0);
        const progress = (index: number) => (fraction: number) => {
          stopIfDone();
          done[index] = fraction * pieces[index]!.length;
          control.onProgress(done.reduce((sum, samples) => sum + samples, 0) / pcm.samples);
        };
        const timings: DecodeTimings & { spot?: number } = { cmn: 0, search: 0, lattice: 0 };
        const cmnMean =
          pieces.length > 1
            ? await withDecoder(vocabulary, async (decoder) => {
                stopIfDone();
                const started = performance.now();
                const mean = await decoder.cmnMeanAsync(pcm, stopIfDone);
                timings.cmn = (performance.now() - started) / 1000;
                return mean;
              })
            : undefined;
        // Every piece settles before the file is closed; the first failure is the one reported.
        let failure: { error: unknown } | null = null;
        const settled = await Promise.allSettled(
          pieces.map((range, index) =>
            withDecoder(vocabulary, (decoder) => {
              stopIfDone();
              return decoder.decodeAsync(pcm, progress(index), pieces.length > 1 ? { range, cmnMean: cmnMean ?? null } : {});
            }).catch((error: unknown) => {
              failed = true;
              failure ??= { error };
              throw error;
            }),
          ),
        );
        if (failure) throw (failure as { error: unknown }).error;
        const recognised: PocketsphinxWord[] = [];
        for (const result of settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))) {
          for (const phase of ['cmn', 'search', 'lattice'] as const) timings[phase] += result.timings[phase];
          for (const word of vocabulary ? writeVocabulary(result.words, vocabulary) : result.words) recognised.push(word);
        }
        const words = recognised.map((w) => ({ ...onClock(w), confidence: round(w.confidence) }));
        // Phrases to spot: a second pass over the whole audio with a keyword-spotting decoder.
        let spotted: SpottedPhrase[] | undefined;
        if (spotting) {
          const started = performance.now();
          const found = await withDecoder(spotting, (decoder) => {
            stopIfDone();
            return decoder.decodeAsync(pcm, () => stopIfDone());
          });
          timings.spot = (performance.now() - started) / 1000;
          spotted = found.words.map((w) => onClock({ phrase: w.word.trim(), start: w.start, end: w.end, confidence: round(w.confidence) })).sort((a, b) => a.start - b.start);
        }
        return { language: 'en', text: words.map((w) => w.word).join(' '), segments: segmentWords(words), words, timings: { ...timings }, ...(spotted ? { spotted } : {}) };
      } finally {
        file.close();
      }
    },
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
