// The C functions of Debian 12's libpocketsphinx.so.3 and libsphinxbase.so.3, bound through koffi
// once per JS realm.
import koffi from 'koffi';
import type { KoffiFunc, LibraryHandle } from 'koffi';

/** Raw C pointer as returned by koffi 3 (NULL comes back as `null`). */
export type Ptr = bigint;

// ---------------------------------------------------------------------------
// Native bindings (loaded once per JS realm, i.e. once per worker thread; the
// dlopen() itself is shared process-wide).

export type OutPtr = [Ptr | null];
export type OutInt = [number];

export interface Native {
  // sphinxbase
  err_set_logfp: (fp: Ptr | null) => void;
  err_set_logfile: (path: string) => number;
  err_get_logfp: () => Ptr | null;
  fclose: (fp: Ptr) => number;
  cmd_ln_parse_r: (inout: Ptr | null, defn: Ptr, argc: number, argv: string[], strict: number) => Ptr | null;
  cmd_ln_free_r: (cfg: Ptr) => number;
  cmd_ln_str_r: (cfg: Ptr, name: string) => string | null;
  cmd_ln_int_r: (cfg: Ptr, name: string) => number;
  cmd_ln_float_r: (cfg: Ptr, name: string) => number;
  logmath_exp: (lmath: Ptr, logp: number) => number;
  logmath_init: (base: number, shift: number, useTable: number) => Ptr | null;
  logmath_log_to_ln: (lmath: Ptr, logp: number) => number;
  logmath_free: (lmath: Ptr) => number;
  cmn_live_get: (cmn: Ptr, vec: Float32Array) => void;
  cmn_live_set: (cmn: Ptr, vec: Float32Array) => void;
  fe_init_auto_r: (cfg: Ptr) => Ptr | null;
  fe_free: (fe: Ptr) => number;
  fe_start_stream: (fe: Ptr) => void;
  fe_start_utt: (fe: Ptr) => number;
  fe_process_utt: KoffiFunc<(fe: Ptr, spch: Buffer, nsamps: number, cep: OutPtr, nframes: OutInt) => number>;
  fe_free_2d: (arr: Ptr) => void;
  // pocketsphinx
  ps_args: () => Ptr;
  ps_init: (cfg: Ptr) => Ptr | null;
  ps_free: (ps: Ptr) => number;
  ps_get_logmath: (ps: Ptr) => Ptr | null;
  ps_get_feat: (ps: Ptr) => Ptr | null;
  ps_start_stream: (ps: Ptr) => number;
  ps_start_utt: (ps: Ptr) => number;
  ps_process_raw: KoffiFunc<(ps: Ptr, data: Buffer, nSamples: number, noSearch: number, fullUtt: number) => number>;
  ps_end_utt: KoffiFunc<(ps: Ptr) => number>;
  ps_seg_iter: (ps: Ptr) => Ptr | null;
  ps_seg_next: (seg: Ptr) => Ptr | null;
  ps_seg_word: (seg: Ptr) => string | null;
  ps_seg_frames: (seg: Ptr, sf: OutInt, ef: OutInt) => void;
  ps_seg_prob: (seg: Ptr, ascr: null, lscr: null, lback: null) => number;
  ps_seg_free: (seg: Ptr) => void;
  ps_get_lm: (ps: Ptr, name: string) => Ptr | null;
  ps_set_lm: (ps: Ptr, name: string, lm: Ptr) => number;
  ps_set_search: (ps: Ptr, name: string) => number;
  ps_set_kws: (ps: Ptr, name: string, keyfile: string) => number;
  ngram_model_read: (config: Ptr | null, path: string, type: number, lmath: Ptr) => Ptr | null;
  ngram_model_set_init: (config: Ptr, models: Ptr[], names: string[], weights: Float32Array, count: number) => Ptr | null;
  ngram_model_free: (lm: Ptr) => number;
  ngram_wid: (lm: Ptr, word: string) => number;
  ngram_bg_score: (lm: Ptr, w2: number, w1: number, used: OutInt) => number;
  ngram_tg_score: (lm: Ptr, w3: number, w2: number, w1: number, used: OutInt) => number;
}

let native: Native | undefined;
let nativeKey = '';

function bind<T>(lib: LibraryHandle, decl: string): T {
  return lib.func(decl) as T;
}

export function loadNative(psPath: string, sbPath: string): Native {
  const key = `${psPath} + ${sbPath}`;
  if (native) {
    if (key !== nativeKey) throw new Error(`pocketsphinx already loaded from ${nativeKey}`);
    return native;
  }
  // libsphinxbase.so.3 is a DT_NEEDED of libpocketsphinx.so.3; loading it
  // explicitly just gives us a handle on its symbols (same mapping).
  const sb = koffi.load(sbPath);
  const ps = koffi.load(psPath);
  const n: Native = {
    err_set_logfp: bind(sb, 'void err_set_logfp(void *fp)'),
    err_set_logfile: bind(sb, 'int err_set_logfile(const char *path)'),
    err_get_logfp: bind(sb, 'void *err_get_logfp(void)'),
    fclose: bind(koffi.load('libc.so.6'), 'int fclose(void *fp)'),
    cmd_ln_parse_r: bind(sb, 'void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)'),
    cmd_ln_free_r: bind(sb, 'int cmd_ln_free_r(void *cfg)'),
    cmd_ln_str_r: bind(sb, 'const char *cmd_ln_str_r(void *cfg, const char *name)'),
    cmd_ln_int_r: bind(sb, 'long cmd_ln_int_r(void *cfg, const char *name)'),
    cmd_ln_float_r: bind(sb, 'double cmd_ln_float_r(void *cfg, const char *name)'),
    logmath_exp: bind(sb, 'double logmath_exp(void *lmath, int logb_p)'),
    logmath_init: bind(sb, 'void *logmath_init(double base, int shift, int use_table)'),
    logmath_log_to_ln: bind(sb, 'double logmath_log_to_ln(void *lmath, int logb_p)'),
    logmath_free: bind(sb, 'int logmath_free(void *lmath)'),
    cmn_live_get: bind(sb, 'void cmn_live_get(void *cmn, float *vec)'),
    cmn_live_set: bind(sb, 'void cmn_live_set(void *cmn, const float *vec)'),
    fe_init_auto_r: bind(sb, 'void *fe_init_auto_r(void *cfg)'),
    fe_free: bind(sb, 'int fe_free(void *fe)'),
    fe_start_stream: bind(sb, 'void fe_start_stream(void *fe)'),
    fe_start_utt: bind(sb, 'int fe_start_utt(void *fe)'),
    fe_process_utt: bind(sb, 'int fe_process_utt(void *fe, const void *spch, size_t nsamps, _Out_ void **cep_block, _Out_ int *nframes)'),
    fe_free_2d: bind(sb, 'void fe_free_2d(void *arr)'),
    ps_args: bind(ps, 'void *ps_args(void)'),
    ps_init: bind(ps, 'void *ps_init(void *cfg)'),
    ps_free: bind(ps, 'int ps_free(void *ps)'),
    ps_get_logmath: bind(ps, 'void *ps_get_logmath(void *ps)'),
    ps_get_feat: bind(ps, 'void *ps_get_feat(void *ps)'),
    ps_start_stream: bind(ps, 'int ps_start_stream(void *ps)'),
    ps_start_utt: bind(ps, 'int ps_start_utt(void *ps)'),
    ps_process_raw: bind(ps, 'int ps_process_raw(void *ps, const void *data, size_t n_samples, int no_search, int full_utt)'),
    ps_end_utt: bind(ps, 'int ps_end_utt(void *ps)'),
    // 5prealpha: ps_seg_iter(ps) has no out_best_score argument (checked in the disassembly).
    ps_seg_iter: bind(ps, 'void *ps_seg_iter(void *ps)'),
    ps_seg_next: bind(ps, 'void *ps_seg_next(void *seg)'),
    ps_seg_word: bind(ps, 'const char *ps_seg_word(void *seg)'),
    ps_seg_frames: bind(ps, 'void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)'),
    ps_seg_prob: bind(ps, 'int ps_seg_prob(void *seg, _Out_ int *ascr, _Out_ int *lscr, _Out_ int *lback)'),
    ps_seg_free: bind(ps, 'void ps_seg_free(void *seg)'),
    ps_get_lm: bind(ps, 'void *ps_get_lm(void *ps, const char *name)'),
    ps_set_lm: bind(ps, 'int ps_set_lm(void *ps, const char *name, void *lm)'),
    ps_set_search: bind(ps, 'int ps_set_search(void *ps, const char *name)'),
    ps_set_kws: bind(ps, 'int ps_set_kws(void *ps, const char *name, const char *keyfile)'),
    ngram_model_read: bind(sb, 'void *ngram_model_read(void *config, const char *path, int type, void *lmath)'),
    ngram_model_set_init: bind(sb, 'void *ngram_model_set_init(void *config, void **models, const char **names, const float *weights, int count)'),
    ngram_model_free: bind(sb, 'int ngram_model_free(void *lm)'),
    ngram_wid: bind(sb, 'int ngram_wid(void *lm, const char *word)'),
    ngram_bg_score: bind(sb, 'int ngram_bg_score(void *lm, int w2, int w1, _Out_ int *n_used)'),
    ngram_tg_score: bind(sb, 'int ngram_tg_score(void *lm, int w3, int w2, int w1, _Out_ int *n_used)'),
  };
  // Silence sphinxbase's logger process-wide: err_set_logfp(NULL) disables it
  // completely, including cmd_ln parse errors that happen before ps_init.
  // (It does not fclose() a previous log file; err_set_logfile() does.)
  n.err_set_logfp(null);
  native = n;
  nativeKey = key;
  return n;
}

