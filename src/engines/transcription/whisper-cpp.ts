// whisper.cpp transcription engine over the prebuilt CPU addon of @fugood/whisper.node
// (the platform package @fugood/node-whisper-<platform>-<arch>, loaded directly: see README.md for why
// the @fugood/whisper.node wrapper itself is not installed).
//
// What the addon gives and does not give (pinned 1.2.0-rc.0 = whisper.cpp 1.9.4-dev; 1.1.3 = 1.9.3 also works):
// - model load is synchronous, in the WhisperContext constructor (on the JS thread);
// - transcribeData runs whisper_full on a libuv worker thread and resolves with
//   { language, result, segments: [{ text, t0, t1 }] (milliseconds), isAborted };
// - onProgress is called with 0..100 from the worker (whisper's progress callback);
// - cancelling differs by version (see `stopInterrupts`):
//   1.1.x: stop() only sets a flag checked before and after whisper_full, so the decode runs to the end anyway,
//          and the job's promise then NEVER settles (its OnError calls back with one argument and the
//          promise wrapper wants two; any native failure hangs the same way). So on 1.1.x stop() is never
//          called: the caller's promise rejects at once, the native job finishes unseen, then the next job runs.
//   1.2.0-rc.0+: stop() is wired into whisper's abort_callback and the promise resolves with isAborted=true.
// - no token data (ids, probabilities, token times): word times come from whisper's own segment wrapping
//   (token_timestamps + max_len=1 makes every token a segment), and there is no word confidence.
import { createRequire } from 'node:module';
import { open, stat } from 'node:fs/promises';
import { openPcmFile, quietWindows, SAMPLE_RATE, type PcmFile, type PcmWindow } from '../../platform/media/pcm-file.ts';
import { segmentWords } from './segments.ts';
import { EngineError, type Segment, type TranscriptionEngine, type TranscriptionResult, type Word } from './types.ts';
import { promptOf } from './prompt.ts';

// ---- the native addon, typed by hand (only what is used) ----

export interface NativeSegment { text: string; t0: number; t1: number }
interface NativeResult { language?: string; result: string; segments: NativeSegment[]; isAborted: boolean }
interface NativeTranscribeOptions {
  language: string;
  maxThreads: number;
  tokenTimestamps: boolean;
  maxLen?: number;
  prompt?: string;
  onProgress: (progress: number) => void;
}
interface NativeJob { stop: () => Promise<void>; promise: Promise<NativeResult> }
interface NativeContext {
  transcribeData(audio: ArrayBuffer, options: NativeTranscribeOptions): NativeJob;
  release(): Promise<void>;
}
interface NativeModule {
  WhisperContext: new (options: { filePath: string; useGpu: boolean; useFlashAttn?: boolean }) => NativeContext;
}

/** Word confidence is not exposed by the addon; 1 matches what the OpenAI engine reports when a word has none. */
export const UNKNOWN_CONFIDENCE = 1;

/**
 * The addon takes the whole audio as one buffer (and converts it to float): a long recording is
 * given in windows of at most this long, cut at a quiet moment, so memory stays bounded whatever
 * the length (10 min: 19 MB of samples, 38 MB as float).
 */
export const WINDOW_SECONDS = 600;
const CUT_SEARCH_SECONDS = 20;
/** whisper.cpp: a vocabulary of at least 51865 entries is a multilingual model; .en models have 51864. */
const MULTILINGUAL_MIN_VOCAB = 51_865;
const GGML_MAGIC = 0x67676d6c;

interface Native {
  module: NativeModule;
  version: string;
  /** stop() interrupts the decode and the job's promise settles (1.2.0-rc.0 and later). */
  stopInterrupts: boolean;
}
let native: Native | null = null;

/** whisper.cpp's language codes (g_lang); anything else is refused before the addon sees it. */
const LANGUAGES = new Set(
  ('en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi ml ' +
    'cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd gu ' +
    'am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su yue').split(' '),
);

function isNativeModule(value: unknown): value is NativeModule {
  return typeof value === 'object' && value !== null && typeof (value as { WhisperContext?: unknown }).WhisperContext === 'function';
}

/** Loads the CPU-only platform package once; a missing package is engine_unavailable, not a crash. */
function loadNative(): Native {
  if (native) return native;
  const name = `@fugood/node-whisper-${process.platform}-${process.arch}`;
  const require = createRequire(import.meta.url);
  let loaded: unknown;
  let manifest: unknown;
  try {
    loaded = require(name);
    manifest = require(`${name}/package.json`);
  } catch (error) {
    throw new EngineError('engine_unavailable', `whisper.cpp addon ${name} could not be loaded: ${(error as Error).message}`, false);
  }
  if (!isNativeModule(loaded)) throw new EngineError('engine_unavailable', `${name} does not export WhisperContext`, false);
  const version = String((manifest as { version?: unknown }).version ?? '0.0.0');
  const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
  native = { module: loaded, version, stopInterrupts: major > 1 || (major === 1 && minor >= 2) };
  return native;
}

// ---- models ----

interface LoadedModel {
  context: NativeContext;
  multilingual: boolean;
  /** Settles when the model's last native job has finished; jobs on one context run one at a time. */
  idle: Promise<void>;
}

/** Reads the ggml header (magic, n_vocab) so a wrong file is refused before the addon sees it. */
async function readModelHeader(path: string): Promise<{ multilingual: boolean }> {
  const info = await stat(path).catch(() => null);
  if (!info || !info.isFile()) throw new EngineError('model_not_found', `whisper model file ${path} does not exist`, false);
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(8);
    const { bytesRead } = await file.read(header, 0, 8, 0);
    if (bytesRead < 8 || header.readUInt32LE(0) !== GGML_MAGIC) {
      throw new EngineError('model_invalid', `${path} is not a whisper.cpp ggml model`, false);
    }
    return { multilingual: header.readInt32LE(4) >= MULTILINGUAL_MIN_VOCAB };
  } finally {
    await file.close();
  }
}

// ---- results ----

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Native times are ms; whisper can run past the end of the audio (its window is 30 s), so clamp to the duration and keep order. */
export function timed<T extends { start: number; end: number }>(items: T[], duration: number): T[] {
  let previousStart = 0;
  return items.map((item) => {
    const start = Math.min(Math.max(item.start, previousStart), duration);
    const end = Math.min(Math.max(item.end, start), duration);
    previousStart = start;
    return { ...item, start: round(start), end: round(end) };
  });
}

/** With max_len=1 every native segment is one token; a token that starts with a space starts a word, others join the previous one. */
export function tokensToWords(tokens: NativeSegment[]): Word[] {
  const words: Word[] = [];
  for (const token of tokens) {
    if (token.text.length === 0) continue;
    const last = words.at(-1);
    if (last && !/^\s/.test(token.text)) {
      last.word += token.text;
      last.end = token.t1 / 1000;
    } else {
      words.push({ start: token.t0 / 1000, end: token.t1 / 1000, word: token.text, confidence: UNKNOWN_CONFIDENCE });
    }
  }
  return words.map((w) => ({ ...w, word: w.word.trim() })).filter((w) => w.word.length > 0);
}

/**
 * Each token piece becomes a JS string on its own, so a UTF-8 character split across two tokens turns into
 * U+FFFD in the words (the joined `result` text is intact). When the whitespace-separated words of the text
 * line up one to one with the token words, take the spelling from the text.
 */
export function repairWords(words: Word[], text: string): Word[] {
  if (!words.some((w) => w.word.includes('\uFFFD'))) return words;
  const parts = text.split(/\s+/).filter((part) => part.length > 0);
  if (parts.length !== words.length) return words;
  return words.map((w, i) => ({ ...w, word: parts[i] ?? w.word }));
}

/** In word mode whisper's own segments are lost to the wrapping: group words at sentence ends, pauses and a maximum length. */
export const wordsToSegments = (words: Word[]): Segment[] => segmentWords(words, { pauseSeconds: 0.6, maxSeconds: 15, sentenceEnds: true });

// ---- the engine ----

/** One window's samples, in an ArrayBuffer of their own (the addon reads the whole buffer, ignoring offsets). */
function windowSamples(audio: PcmFile, window: PcmWindow): ArrayBuffer {
  const bytes = audio.read(window.start, window.length);
  const whole = bytes.byteOffset === 0 && bytes.length === bytes.buffer.byteLength;
  return (whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)) as ArrayBuffer;
}

/**
 * A decode whose progress has not moved for this long is stopped and its run fails, instead of
 * holding the worker for ever: a native decode that never ends was seen once (a random-weight test
 * model). whisper.cpp reports progress after each 30 s step of audio, which the largest model
 * takes about two minutes for on two cores.
 */
export const STALL_SECONDS = 300;

/**
 * Waits for a native job: a cancel of the run rejects at once and stops it, and so does a stall (`movedAt`, when its progress
 * last moved, older than `stallSeconds`). Where stop() cannot interrupt the decode (1.1.x) the
 * promise is given up on and the native job finishes unseen.
 */
export async function settle(job: NativeJob, signal: AbortSignal, cancelled: () => EngineError, movedAt: () => number = Date.now, stallSeconds = STALL_SECONDS, stopInterrupts = loadNative().stopInterrupts): Promise<NativeResult> {
  let onAbort = () => {};
  let watch: ReturnType<typeof setInterval> | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      if (stopInterrupts) void job.stop();
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    watch = setInterval(
      () => {
        if (Date.now() - movedAt() < stallSeconds * 1000) return;
        if (stopInterrupts) void job.stop();
        reject(new EngineError('transcription_failed', `whisper.cpp made no progress for ${stallSeconds} s: the decode was stopped`, false));
      },
      Math.min(5_000, (stallSeconds * 1000) / 4),
    );
  });
  try {
    const result = await Promise.race([job.promise, stopped]);
    if (result.isAborted) throw cancelled();
    return result;
  } catch (error) {
    if (error instanceof EngineError) throw error;
    if (signal.aborted) throw cancelled();
    throw new EngineError('transcription_failed', `whisper.cpp: ${(error as Error).message}`, false);
  } finally {
    clearInterval(watch);
    signal.removeEventListener('abort', onAbort);
  }
}

export function whisperCppEngine(resolveModel: (name: string) => Promise<string | null>, threads: number, windowSeconds = WINDOW_SECONDS, stallSeconds = STALL_SECONDS): TranscriptionEngine {
  const models = new Map<string, Promise<LoadedModel>>();

  const loadModel = (path: string): Promise<LoadedModel> => {
    let pending = models.get(path);
    if (!pending) {
      pending = (async () => {
        const { multilingual } = await readModelHeader(path);
        const addon = loadNative().module;
        try {
          // Synchronous: blocks the event loop for the load (tens of ms for tiny, seconds for large models).
          const context = new addon.WhisperContext({ filePath: path, useGpu: false });
          return { context, multilingual, idle: Promise.resolve() };
        } catch (error) {
          throw new EngineError('model_invalid', `whisper.cpp could not load ${path}: ${(error as Error).message}`, false);
        }
      })();
      models.set(path, pending);
      // A failed load is not cached: the file may be fixed or installed later.
      pending.catch(() => models.delete(path));
    }
    return pending;
  };

  return {
    name: 'whisper.cpp',
    async transcribe(request, control): Promise<TranscriptionResult> {
      const { signal } = control;
      const cancelled = () => new EngineError('cancelled', 'the run was cancelled', false);
      if (signal.aborted) throw cancelled();

      const path = await resolveModel(request.model);
      if (path === null) throw new EngineError('model_not_found', `whisper model "${request.model}" is not installed`, false);
      const model = await loadModel(path);

      let language = request.language === 'auto' ? 'auto' : request.language.toLowerCase();
      if (language !== 'auto' && !LANGUAGES.has(language)) {
        throw new EngineError('language_unsupported', `whisper.cpp has no language "${request.language}"`, false);
      }
      if (!model.multilingual) {
        // whisper.cpp would run language detection on an English-only model and report nonsense.
        if (language !== 'auto' && language !== 'en') {
          throw new EngineError('language_unsupported', `model "${request.model}" is English-only; "${request.language}" was requested`, false);
        }
        language = 'en';
      }

      const audio = openPcmFile(request.audioPath);
      // One recording at a time per context: a second native job would hold a libuv pool thread while
      // it waits on the context's mutex, and a stopped job (1.1.3) keeps running until its decode ends.
      const previous = model.idle;
      let release = () => {};
      let lastNative: Promise<unknown> = Promise.resolve();
      model.idle = new Promise<void>((resolve) => (release = resolve));
      try {
        const duration = request.durationSeconds > 0 ? request.durationSeconds : audio.samples / SAMPLE_RATE;
        const windows = quietWindows(audio, windowSeconds, CUT_SEARCH_SECONDS);
        await previous;
        let progress = 0;
        let movedAt = Date.now();
        const report = (fraction: number) => {
          if (fraction <= progress || signal.aborted) return;
          progress = fraction;
          movedAt = Date.now();
          // Called from the addon's thread-safe function: a throw here would be an uncaught exception.
          try {
            control.onProgress(fraction);
          } catch {
            // progress is advisory
          }
        };

        const texts: string[] = [];
        const pieces: NativeSegment[] = [];
        let detected: string | undefined;
        for (const [index, window] of windows.entries()) {
          if (signal.aborted) throw cancelled();
          const job = model.context.transcribeData(windowSamples(audio, window), {
            // An "auto" recording keeps the language its first window was heard in.
            language: detected ?? language,
            maxThreads: Math.max(1, Math.floor(threads)),
            tokenTimestamps: request.wordTimestamps,
            ...(request.wordTimestamps ? { maxLen: 1 } : {}),
            ...(promptOf(request) ? { prompt: promptOf(request) } : {}),
            onProgress: (value) => report((index + Math.min(1, Math.max(0, value / 100))) / windows.length),
          });
          // The next job starts only when this native one has really finished, even after a cancel.
          lastNative = job.promise.catch(() => {});
          movedAt = Date.now();
          const result = await settle(job, signal, cancelled, () => movedAt, stallSeconds);
          const text = result.result.trim();
          if (text) texts.push(text);
          const offset = (window.start / SAMPLE_RATE) * 1000;
          for (const piece of result.segments) pieces.push({ text: piece.text, t0: piece.t0 + offset, t1: piece.t1 + offset });
          if (language === 'auto') detected ??= result.language;
        }

        const text = texts.join(' ');
        const heard = detected ?? (language === 'auto' ? 'en' : language);
        if (request.wordTimestamps) {
          const words = repairWords(timed(tokensToWords(pieces), duration), text);
          return { language: heard, text, segments: wordsToSegments(words), words };
        }
        const segments = timed(
          pieces.map((p) => ({ start: p.t0 / 1000, end: p.t1 / 1000, text: p.text.trim() })).filter((p) => p.text.length > 0),
          duration,
        );
        return { language: heard, text, segments, words: [] };
      } finally {
        audio.close();
        void Promise.all([previous, lastNative]).then(release);
      }
    },
  };
}
