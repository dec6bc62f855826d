// Word error rate: word-level edit distance over the reference length, after normalisation.
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/<\/?s>|\([^)]*\)/g, ' ')
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return { errors: previous[hyp.length] ?? 0, words: ref.length };
}

export function wer(reference: string, hypothesis: string): number {
  const { errors, words } = wordErrors(reference, hypothesis);
  return words === 0 ? (errors === 0 ? 0 : 1) : errors / words;
}
