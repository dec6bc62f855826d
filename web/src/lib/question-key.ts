// A new question's key, made from its words: "Did the agent offer a refund?" is agent_offer_refund,
// not q5. Keys name a question in reports, CSV columns and answer filters, so a saved question's
// key is never changed this way: only one still new, whose key was made here (or is a q<n>).

const LEFT_OUT = new Set(['a', 'an', 'the', 'did', 'does', 'do', 'is', 'was', 'were', 'are', 'has', 'have', 'had', 'to', 'of', 'in', 'on', 'for', 'with', 'any', 'their', 'his', 'her', 'its', 'they', 'what', 'which', 'who', 'how', 'when', 'where', 'why', 'this', 'that', 'be', 'by', 'at', 'or', 'and', 'if']);

/** Up to three telling words of the question, joined by _, unique among `taken` (a _2 suffix after). */
export function questionKey(text: string, taken: readonly string[]): string {
  const words = text.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/).filter((w) => w && !LEFT_OUT.has(w));
  const base = words.slice(0, 3).join('_').slice(0, 48) || 'question';
  let key = base;
  for (let n = 2; taken.includes(key); n += 1) key = `${base}_${n}`;
  return key;
}

/** A key this page made (or a placeholder q<n>), which may follow the question's words while it is new. */
export function isMadeKey(key: string, text: string, taken: readonly string[]): boolean {
  return /^q\d+$/.test(key) || key === questionKey(text, taken);
}
