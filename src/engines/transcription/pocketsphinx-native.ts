/**
 * In-process binding to Debian 12's PocketSphinx 0.8+5prealpha
 * (libpocketsphinx.so.3 + libsphinxbase.so.3, packages libpocketsphinx3 /
 * libsphinxbase3) through koffi.
 *
 * Audio contract: 16 kHz, mono, signed 16-bit little-endian PCM, no header.
 * A whole buffer is decoded as ONE utterance, fed in chunks (default 1 s) so
 * that progress can be reported.
 *
 * One decoder handles one decode at a time (concurrent use throws). Separate
 * decoders, e.g. one per worker_thread, can run in parallel.
 */
import koffi from 'koffi';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNative, type Native, type OutInt, type OutPtr, type Ptr } from './pocketsphinx-bindings.ts';
import { bufferSource, quietWindows, type PcmSource, type PcmWindow } from '../../platform/media/pcm-file.ts';
import { CepHistogram } from './pocketsphinx-cmn.ts';
import { runAsync, runSync, step, type Step } from './pocketsphinx-steps.ts';


export const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export type CmnMode = 'file' | 'init' | 'carry';

export interface PocketsphinxOptions {
  /** Acoustic model directory. Default: /usr/share/pocketsphinx/model/en-us/en-us */
  hmm?: string;
  /** N-gram language model. Default: /usr/share/pocketsphinx/model/en-us/en-us.lm.bin */
  lm?: string;
  /** Pronunciation dictionary. Default: /usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict */
  dict?: string;
  /** Seconds of audio per ps_process_raw() call (progress granularity). Default 1. */
  chunkSeconds?: number;
  /**
   * Longest utterance in seconds (default 120): a longer input is decoded as several utterances,
   * each cut at a quiet moment, so the search's memory stays bounded whatever the length.
   */
  utteranceSeconds?: number;
  /**
   * Cepstral mean normalisation. When audio is fed in chunks this build only
   * does *live* CMN, whose running mean normally carries over from one
   * decode to the next:
   * - 'file'  (default): estimate the mean over the whole buffer first with a
   *            cheap MFCC-only pass (ignoring near-silent frames) and start
   *            from it (~ batch CMN: best WER, result independent of
   *            previous decodes);
   * - 'init':  restart from the model's -cmninit before every decode;
   * - 'carry': library behaviour, state carries over between decodes.
   * Falls back to 'carry' if the ABI sanity check fails (see info.cmn).
   */
  cmn?: CmnMode;
  /**
   * Extra decoder arguments, applied last, e.g. { '-beam': '1e-60' }.
   * Keys include the leading dash. Note: '-remove_silence' defaults to 'no'
   * here because 'yes' (the library default) corrupts word timestamps.
   */
  extraArgs?: Readonly<Record<string, string>>;
  /**
   * Send PocketSphinx's log to this file (passed as -logfn). Default: logging
   * disabled. The logger is process-global in sphinxbase: once any decoder
   * sets a log file, all decoders (all threads) log there.
   */
  logFile?: string;
  /**
   * Words to add to the dictionary and the language model (a phrase is one word whose phones are
   * its parts' in a row). The dictionary the decoder loads has them; the language model becomes
   * the model's own interpolated with a unigram model of these words alone, weighted `wordWeight`
   * per cent (default 1). This library's own ways to add a word (ps_add_word,
   * ngram_model_add_word) leave a search that crashes on a later utterance once several are added.
   */
  words?: readonly { word: string; phones: string }[];
  wordWeight?: number;
  /**
   * Keyword spotting instead of transcription: the decoder searches the audio for these phrases
   * (words of its dictionary, or of `words`), each with its detection threshold (a probability,
   * e.g. 1e-20: lower finds more), and its "words" are the phrases found.
   */
  spot?: readonly { phrase: string; threshold: number }[];
  /** Override the shared library names (Debian ships no unversioned .so without -dev). */
  libPocketsphinx?: string;
  libSphinxbase?: string;
}

export interface PocketsphinxWord {
  word: string;
  /** Seconds from the start of the buffer. */
  start: number;
  /** Seconds from the start of the buffer (exclusive end). */
  end: number;
  /** Lattice posterior probability of the word, 0..1. */
  confidence: number;
}

export interface PocketsphinxResult {
  text: string;
  words: PocketsphinxWord[];
  /** Where the decode's time went, in seconds of wall-clock time. */
  timings: DecodeTimings;
}

export interface DecodeTimings {
  /** The per-file cepstral mean pass (MFCCs only, no search); 0 when given a mean. */
  cmn: number;
  /** Feeding the audio: the forward (tree and flat) search as it goes. */
  search: number;
  /** Ending each utterance: the rest of the flat pass, the lattice and its best path, the words. */
  lattice: number;
}

export interface DecodeOptions {
  /** Decode only these samples; word times still count from the start of the source. */
  range?: PcmWindow;
  /**
   * The cepstral mean to start from, as `cmnMean()` gives for the whole source: pieces of one
   * file decoded apart then share one estimate, as one decode of the file would.
   */
  cmnMean?: Float32Array | null;
}

export interface PocketsphinxInfo {
  /** Wall-clock milliseconds spent parsing the config + ps_init (model loading). */
  initMs: number;
  /** Frames per second (-frate), 100 by default. */
  frameRate: number;
  sampleRate: number;
  /** Effective CMN mode (see PocketsphinxOptions.cmn). */
  cmn: CmnMode;
}


export interface Pocketsphinx {
  readonly info: PocketsphinxInfo;
  /**
   * Decode a whole buffer synchronously (blocks the calling thread).
   * onProgress gets monotonically increasing fractions: up to 0.85 while the
   * audio is fed (once per chunk), then 1 when the final search is done.
   */
  decode(pcm: Buffer | PcmSource, onProgress?: (fraction: number) => void): PocketsphinxResult;
  /**
   * Same result as decode(), but the heavy native calls run on koffi's async
   * thread pool so the calling thread's event loop stays responsive.
   */
  decodeAsync(pcm: Buffer | PcmSource, onProgress?: (fraction: number) => void, options?: DecodeOptions): Promise<PocketsphinxResult>;
  /**
   * The per-file cepstral mean of `pcm` (null when this decoder does not estimate one), on koffi's
   * pool; `onBlock` is called before each 30 s block and may throw to stop.
   */
  cmnMeanAsync(pcm: Buffer | PcmSource, onBlock?: () => void): Promise<Float32Array | null>;
  /** Free the decoder. Idempotent; later decode calls throw. */
  close(): void;
}

// ---------------------------------------------------------------------------
// ABI details of Debian 12's libsphinxbase3 (0.8+5prealpha+1-16, x86-64),
// read from the disassembly of feat_update_stats(), cmn_init(), cmn_live_get():
//   feat_t: +0x10 int32 cepsize, +0x44 cmn_type_t cmn, +0x58 cmn_t *cmn_struct
//   cmn_t:  +0x00 float *cmn_mean, +0x1c int32 veclen
// (matches sphinxbase 5prealpha's feat.h / cmn.h). Only used to reach the
// live-CMN state; validated at start-up against -ceplen and -cmninit,
// otherwise CMN control is disabled (info.cmn = 'carry').
const FEAT_CEPSIZE_OFFSET = 0x10;
const FEAT_CMN_STRUCT_OFFSET = 0x58;
const CMN_VECLEN_OFFSET = 0x1c;

/**
 * Share of the progress bar given to feeding audio. ps_end_utt() then runs
 * the rest of the fwdflat pass + bestpath lattice search over the whole
 * utterance, which measured at ~15-20 % of total decode time.
 */
const FEED_SHARE = 0.85;
const UTTERANCE_SECONDS = 120;
/** An utterance is cut at the quietest 100 ms of its last this many seconds. */
const CUT_SEARCH_SECONDS = 15;

/**
 * Frames whose c0 is more than this below the file's 90th percentile of c0
 * are left out of the per-file CMN estimate. Tuned on the test clips with
 * zero/noise padding and long digital-silence gaps (WER over all 11 clips,
 * orig / zero-padded / noise-padded / two copies with a 6 s zero gap):
 * all frames 20.8 / 70.8 / 39.6 / 54.2 %, gate 30: 20.8 / 20.8 / 27.1 / 21.9 %,
 * 'init' mode: 34.4 / 34.4 / 37.5 / 34.9 %.
 */
const CMN_GATE = 30;

/** Samples per fe_process_utt() call in the CMN pre-pass (bounds temp memory). */
const PREPASS_SAMPLES = 16000 * 30;

function readPtr(base: Ptr, offset: number): Ptr | null {
  return koffi.decode(base, offset, 'void *') as Ptr | null;
}
function readInt32(base: Ptr, offset: number): number {
  return koffi.decode(base, offset, 'int32_t') as number;
}

function isFiller(w: string): boolean {
  return (
    (w.startsWith('<') && w.endsWith('>')) || // <s> </s> <sil>
    (w.startsWith('[') && w.endsWith(']')) || // [NOISE] [SPEECH] ...
    (w.startsWith('++') && w.endsWith('++')) // ++NOISE++ ++BREATH++ ...
  );
}

/** Alternate pronunciation marker: word(2) -> word. */
function cleanWord(w: string): string {
  return w.replace(/\(\d+\)$/, '');
}

const NGRAM_AUTO = 0;
const NGRAM_ARPA = 1;

/** An ARPA unigram model of `words`, each equally likely, written in `dir`; its path. */
function writeWordsLm(dir: string, words: readonly { word: string }[]): string {
  const file = join(dir, 'words.arpa');
  const logp = (-Math.log10(words.length)).toFixed(4);
  const unigrams = [`-99 <s> 0`, `-99 </s>`, ...words.map((w) => `${logp} ${w.word} 0`)];
  writeFileSync(file, `\\data\\\nngram 1=${unigrams.length}\n\n\\1-grams:\n${unigrams.join('\n')}\n\n\\end\\\n`);
  return file;
}

function check(rv: number, what: string): void {
  if (rv < 0) throw new Error(`${what} failed (${rv})`);
}

// ---------------------------------------------------------------------------

export function createPocketsphinx(opts: PocketsphinxOptions = {}): Pocketsphinx {
  const chunkSeconds = opts.chunkSeconds ?? 1;
  const utteranceSeconds = opts.utteranceSeconds ?? UTTERANCE_SECONDS;
  if (!(chunkSeconds > 0 && Number.isFinite(chunkSeconds))) throw new RangeError('chunkSeconds must be a positive number');
  const n = loadNative(opts.libPocketsphinx ?? 'libpocketsphinx.so.3', opts.libSphinxbase ?? 'libsphinxbase.so.3');

  const words = opts.words ?? [];
  const spot = opts.spot ?? [];
  const baseDict = opts.dict ?? join(DEFAULT_MODEL_DIR, 'cmudict-en-us.dict');
  const lmFile = opts.lm ?? join(DEFAULT_MODEL_DIR, 'en-us.lm.bin');
  // Added words and phrases to spot go in files of a folder of this decoder's, read at start and
  // removed then, however the start ends.
  const scratch = words.length > 0 || spot.length > 0 ? mkdtempSync(join(tmpdir(), 'hark-decoder-')) : null;
  let config: Ptr | null = null;
  let ps: Ptr | null = null;
  let failure = '';
  let argv: string[] = [];
  const t0 = performance.now();
  try {
    const dict = scratch && words.length > 0 ? join(scratch, 'words.dict') : baseDict;
    if (dict !== baseDict) writeFileSync(dict, `${readFileSync(baseDict, 'utf8').trimEnd()}\n${words.map((w) => `${w.word} ${w.phones}`).join('\n')}\n`);
    const args: Record<string, string> = {
      '-hmm': opts.hmm ?? join(DEFAULT_MODEL_DIR, 'en-us'),
      // Spotting needs no language model; with added words it is built below, around the model's own.
      ...(words.length > 0 || spot.length > 0 ? {} : { '-lm': lmFile }),
      '-dict': dict,
      '-remove_silence': 'no',
      ...opts.extraArgs,
    };
    if (opts.logFile !== undefined) args['-logfn'] = opts.logFile;
    argv = ['hark', ...Object.entries(args).flat()]; // argv[0] is skipped by cmd_ln
    config = n.cmd_ln_parse_r(null, n.ps_args(), argv.length, argv, 1);
    ps = config === null ? null : n.ps_init(config);
    // Asked while the files it read still exist.
    if (ps === null) failure = diagnose(n, argv);
    if (ps !== null && spot.length > 0) {
      const keyfile = join(scratch!, 'phrases.kws');
      writeFileSync(keyfile, spot.map((p) => `${p.phrase} /${p.threshold.toExponential()}/`).join('\n') + '\n');
      if (n.ps_set_kws(ps, 'spot', keyfile) < 0 || n.ps_set_search(ps, 'spot') < 0) failure = 'the phrases to spot were refused';
    } else if (ps !== null && words.length > 0) {
      // The language model: the model's own, interpolated with one of the added words alone (each
      // equally likely), at `wordWeight` per cent; the search is built anew over both.
      const weight = Math.min(0.5, Math.max(1e-4, (opts.wordWeight ?? 1) / 100));
      const lmath = n.ps_get_logmath(ps);
      const own = lmath === null ? null : n.ngram_model_read(config!, lmFile, NGRAM_AUTO, lmath);
      const added = lmath === null ? null : n.ngram_model_read(config!, writeWordsLm(scratch!, words), NGRAM_ARPA, lmath);
      const set = own === null || added === null ? null : n.ngram_model_set_init(config!, [own, added], ['model', 'words'], new Float32Array([1 - weight, weight]), 2);
      for (const model of [own, added]) if (model !== null) n.ngram_model_free(model);
      if (set === null || n.ps_set_lm(ps, '_default', set) < 0 || n.ps_set_search(ps, '_default') < 0) failure = 'the language model with the added words could not be built';
      if (set !== null) n.ngram_model_free(set);
    }
  } catch (error) {
    failure = (error as Error).message;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  const initMs = performance.now() - t0;
  if (config === null || ps === null || failure) {
    if (ps !== null) n.ps_free(ps);
    if (config !== null) n.cmd_ln_free_r(config);
    throw new Error(`pocketsphinx initialisation failed: ${failure || diagnose(n, argv)}`);
  }
  // From here on, free native objects if set-up fails.
  let fe: Ptr | null = null;
  const release = (): void => {
    if (fe !== null) n.fe_free(fe);
    n.ps_free(ps); // drops its own reference on config
    n.cmd_ln_free_r(config);
  };

  let lmath: Ptr;
  let frameRate: number;
  let sampleRate: number;
  let ceplen: number;
  let cmn: Ptr | null = null;
  let cmnInit: Float32Array | null = null;
  let mode: CmnMode = opts.cmn ?? 'file';
  let chunkSamples: number;
  try {
    const lm = n.ps_get_logmath(ps);
    if (lm === null) throw new Error('ps_get_logmath returned NULL');
    lmath = lm;
    frameRate = n.cmd_ln_int_r(config, '-frate');
    sampleRate = n.cmd_ln_float_r(config, '-samprate');
    ceplen = n.cmd_ln_int_r(config, '-ceplen');
    chunkSamples = Math.max(1, Math.round(chunkSeconds * sampleRate));

    if (mode !== 'carry') {
      // Locate the live-CMN state (checking feat_t's cepsize first) and
      // check it holds exactly -cmninit (unlisted trailing values are 0).
      const feat = n.ps_get_feat(ps);
      const c = feat !== null && readInt32(feat, FEAT_CEPSIZE_OFFSET) === ceplen ? readPtr(feat, FEAT_CMN_STRUCT_OFFSET) : null;
      const listed = (n.cmd_ln_str_r(config, '-cmninit') ?? '').split(',').map(Number);
      const expected = Array.from({ length: ceplen }, (_, i) => listed[i] ?? 0);
      if (c !== null && readInt32(c, CMN_VECLEN_OFFSET) === ceplen) {
        const v = new Float32Array(ceplen);
        n.cmn_live_get(c, v);
        if (expected.every((x, i) => Math.abs((v[i] ?? Number.NaN) - x) < 1e-3)) {
          cmn = c;
          cmnInit = v;
        }
      }
      if (cmn === null) mode = 'carry';
    }
    if (mode === 'file') {
      // Separate MFCC front end with the decoder's (feat.params-merged) config.
      fe = n.fe_init_auto_r(config);
      if (fe === null) mode = 'init';
    }
  } catch (e) {
    release();
    throw e;
  }

  let closed = false;
  let busy = false;
  const sf: OutInt = [0];
  const ef: OutInt = [0];

  const enter = (pcm: Buffer | PcmSource): PcmSource => {
    if (Buffer.isBuffer(pcm) && pcm.length % 2 !== 0) throw new RangeError('pcm length must be even (s16le samples)');
    if (closed) throw new Error('pocketsphinx decoder is closed');
    if (busy) throw new Error('pocketsphinx decoder is busy (one decode at a time)');
    busy = true;
    return Buffer.isBuffer(pcm) ? bufferSource(pcm) : pcm;
  };

  /** Add the frames of one fe_process_utt() block to the c0 histogram, then free the block. */
  const accumulate = (block: Ptr | null, nfr: number, h: CepHistogram): void => {
    if (block === null) return;
    try {
      const rows = nfr > 0 ? readPtr(block, 0) : null; // ckd_calloc_2d: contiguous, row 0 = start
      if (rows !== null) h.add(new Float32Array(koffi.view(rows, nfr * ceplen * 4)));
    } finally {
      n.fe_free_2d(block);
    }
  };

  const collect = (): PocketsphinxWord[] => {
    const words: PocketsphinxWord[] = [];
    let seg = n.ps_seg_iter(ps);
    try {
      while (seg !== null) {
        const raw = n.ps_seg_word(seg) ?? '';
        if (raw !== '' && !isFiller(raw)) {
          n.ps_seg_frames(seg, sf, ef);
          // Log posterior of the word from the bestpath lattice (-bestpath yes)
          // in the decoder's log base; logmath_exp() makes it linear.
          const conf = n.logmath_exp(lmath, n.ps_seg_prob(seg, null, null, null));
          words.push({
            word: cleanWord(raw),
            start: sf[0] / frameRate,
            end: (ef[0] + 1) / frameRate, // ef is inclusive
            confidence: Number.isFinite(conf) ? Math.min(1, Math.max(0, conf)) : 0,
          });
        }
        seg = n.ps_seg_next(seg); // frees the iterator itself when it returns NULL
      }
    } finally {
      if (seg !== null) n.ps_seg_free(seg);
    }
    return words;
  };

  /** Step 1 of a decode: the per-file CMN estimate, MFCCs only (no search), mean over non-silent frames. */
  const meanSteps = function* (pcm: PcmSource, onBlock?: () => void): Generator<Step, Float32Array | null, number> {
    if (mode !== 'file' || fe === null) return null;
    const hist = new CepHistogram(ceplen);
    n.fe_start_stream(fe);
    n.fe_start_utt(fe);
    for (let off = 0; off < pcm.samples; off += PREPASS_SAMPLES) {
      onBlock?.();
      const len = Math.min(PREPASS_SAMPLES, pcm.samples - off);
      const cep: OutPtr = [null];
      const nfr: OutInt = [0];
      const rv = yield step(n.fe_process_utt, fe, pcm.read(off, len), len, cep, nfr);
      accumulate(cep[0], nfr[0], hist); // frees the block
      check(rv, 'fe_process_utt');
    }
    return hist.mean(CMN_GATE);
  };

  /**
   * The decode algorithm, written once. Each potentially long native call is
   * yielded as a Step, which the driver runs synchronously (decode) or on
   * koffi's thread pool (decodeAsync); its return value is sent back in.
   */
  const steps = function* (pcm: PcmSource, onProgress?: (fraction: number) => void, options: DecodeOptions = {}): Generator<Step, PocketsphinxResult, number> {
    const range = options.range ?? { start: 0, length: pcm.samples };
    const source: PcmSource = options.range ? { samples: range.length, read: (off, len) => pcm.read(range.start + off, len) } : pcm;
    const total = source.samples;
    const offset = range.start / sampleRate;
    const timings: DecodeTimings = { cmn: 0, search: 0, lattice: 0 };
    let since = performance.now();
    const lap = (phase: keyof DecodeTimings): void => {
      const now = performance.now();
      timings[phase] += (now - since) / 1000;
      since = now;
    };

    // 1. The file's CMN estimate, unless given.
    const fileMean = options.cmnMean !== undefined ? options.cmnMean : yield* meanSteps(pcm);
    lap('cmn');

    // 2. Reset per-stream state. ps_start_stream resets the front end's sample
    // counter + noise statistics and the stream frame offset (without it,
    // segment times accumulate across decodes).
    check(n.ps_start_stream(ps), 'ps_start_stream');
    const cmnStart = fileMean ?? cmnInit;
    if (cmn !== null && cmnStart !== null) n.cmn_live_set(cmn, cmnStart);

    // 3. Utterances of bounded length, cut at quiet moments, each fed in chunks. Segment frames
    // count from the start of the stream (the range's start).
    const words: PocketsphinxWord[] = [];
    for (const window of quietWindows(source, utteranceSeconds, CUT_SEARCH_SECONDS)) {
      check(n.ps_start_utt(ps), 'ps_start_utt');
      const end = window.start + window.length;
      let ended = false;
      try {
        for (let off = window.start; off < end; off += chunkSamples) {
          const len = Math.min(chunkSamples, end - off);
          // The chunk stays referenced (by the step) until the call returns.
          check(yield step(n.ps_process_raw, ps, source.read(off, len), len, 0, 0), 'ps_process_raw');
          onProgress?.((window.start + FEED_SHARE * (off + len - window.start)) / total);
        }
        lap('search');
        ended = true;
        // Rest of the fwdflat pass + bestpath lattice search over the utterance.
        check(yield step(n.ps_end_utt, ps), 'ps_end_utt');
      } finally {
        if (!ended) n.ps_end_utt(ps); // leave the decoder reusable after an error
      }
      for (const word of collect()) words.push(offset === 0 ? word : { ...word, start: word.start + offset, end: word.end + offset });
      lap('lattice');
      onProgress?.(end / total);
    }
    onProgress?.(1);
    return { text: words.map((w) => w.word).join(' '), words, timings };
  };

  return {
    info: Object.freeze({ initMs, frameRate, sampleRate, cmn: mode }),

    decode(pcm, onProgress) {
      const source = enter(pcm);
      try {
        return runSync(steps(source, onProgress));
      } finally {
        busy = false;
      }
    },

    async decodeAsync(pcm, onProgress, options) {
      const source = enter(pcm);
      try {
        return await runAsync(steps(source, onProgress, options));
      } finally {
        busy = false;
      }
    },

    async cmnMeanAsync(pcm, onBlock) {
      const source = enter(pcm);
      try {
        return await runAsync(meanSteps(source, onBlock));
      } finally {
        busy = false;
      }
    },

    close() {
      if (closed) return;
      if (busy) throw new Error('cannot close pocketsphinx decoder while decoding');
      closed = true;
      release();
    },
  };
}

/**
 * Re-run a failed initialisation with logging sent to a temp file, to turn
 * PocketSphinx's ERROR lines into an exception message. Logging is disabled
 * again afterwards (process-wide, as everywhere in this module).
 */
function diagnose(n: Native, argv: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ps-'));
  const file = join(dir, 'log');
  // Drop a user -logfn so the re-run logs to our temp file.
  const args = argv.filter((a, i) => a !== '-logfn' && argv[i - 1] !== '-logfn');
  const closeLog = (): void => {
    const fp = n.err_get_logfp(); // NULL while disabled
    n.err_set_logfp(null); // does not fclose()
    if (fp !== null) n.fclose(fp);
  };
  try {
    if (n.err_set_logfile(file) < 0) return 'unknown error (cannot open temp log)';
    const cfg = n.cmd_ln_parse_r(null, n.ps_args(), args.length, args, 1);
    if (cfg !== null) {
      const d = n.ps_init(cfg);
      if (d !== null) n.ps_free(d);
      n.cmd_ln_free_r(cfg);
    }
    closeLog(); // flush + close the temp log
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^(ERROR|FATAL)/.test(l));
    return lines.length > 0 ? lines.join('; ') : 'unknown error (no log output)';
  } catch (e) {
    return `unknown error (${String(e)})`;
  } finally {
    closeLog();
    rmSync(dir, { recursive: true, force: true });
  }
}
