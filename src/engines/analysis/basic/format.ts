// Number rounding and text shaping for the output: times, confidences, bounded sentences.
export function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, x));
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Capitalised and closed with a full stop, because recogniser output has neither. */
export function sentenceCase(s: string): string {
  const t = s.trim();
  if (t === '') return t;
  const cased = t[0] === t[0]?.toLowerCase() ? (t[0]?.toUpperCase() ?? '') + t.slice(1) : t;
  return /[.!?…]$/.test(cased) ? cased : `${cased}.`;
}

/** At most `max` characters, cut at a word boundary when one is near, ending in "…". */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max * 0.5 ? cut.slice(0, sp) : cut).trimEnd()}…`;
}
