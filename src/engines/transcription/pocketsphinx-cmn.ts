// Per-file cepstral mean estimate for pocketsphinx, leaving near-silent frames out.

/**
 * Per-file cepstral statistics, bucketed by c0 (log energy) so that very
 * quiet frames can be left out of the mean afterwards without keeping every
 * frame in memory. Digital silence (exact zeros) gives c0 = -46, far below
 * any real signal (speech ~40-70, room noise ~15-25), and would otherwise
 * drag the mean down and wreck recognition.
 */
export class CepHistogram {
  static readonly LO = -80;
  static readonly STEP = 0.5;
  static readonly BINS = 400; // c0 in [-80, 120)
  private readonly count = new Float64Array(CepHistogram.BINS);
  private readonly sum: Float64Array;
  constructor(private readonly dim: number) {
    this.sum = new Float64Array(CepHistogram.BINS * dim);
  }
  add(cep: Float32Array): void {
    const d = this.dim;
    for (let f = 0; f + d <= cep.length; f += d) {
      const c0 = cep[f] ?? 0;
      const b = Math.min(CepHistogram.BINS - 1, Math.max(0, Math.floor((c0 - CepHistogram.LO) / CepHistogram.STEP)));
      this.count[b] = (this.count[b] ?? 0) + 1;
      for (let k = 0; k < d; k++) this.sum[b * d + k] = (this.sum[b * d + k] ?? 0) + (cep[f + k] ?? 0);
    }
  }
  /** Mean over frames with c0 >= (90th percentile of c0) - gate; null if no frames. */
  mean(gate: number): Float32Array | null {
    const total = this.count.reduce((a, b) => a + b, 0);
    if (total === 0) return null;
    let acc = 0;
    let p90 = CepHistogram.BINS - 1;
    for (let b = 0; b < CepHistogram.BINS; b++) {
      acc += this.count[b] ?? 0;
      if (acc >= 0.9 * total) {
        p90 = b;
        break;
      }
    }
    const first = Math.max(0, p90 - Math.floor(gate / CepHistogram.STEP));
    const d = this.dim;
    const out = new Float64Array(d);
    let n = 0;
    for (let b = first; b < CepHistogram.BINS; b++) {
      n += this.count[b] ?? 0;
      for (let k = 0; k < d; k++) out[k] = (out[k] ?? 0) + (this.sum[b * d + k] ?? 0);
    }
    return Float32Array.from(out, (x) => x / n);
  }
}

