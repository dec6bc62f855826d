// Synonym groups and tagging tokens with them, so a question can match a paraphrase.
import type { Token } from './tokens.ts';

/**
 * Synonym groups, in lemma form; multi-word entries are matched as lemma
 * sequences. Deliberately generic (everyday English + call-centre vocabulary).
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['greet', 'greeting', 'hello', 'hi', 'hey', 'welcome', 'good morning', 'good afternoon', 'good evening',
    'thank you for call', 'thanks for call', 'you have reach'],
  ['refund', 'reimburse', 'reimbursement', 'money back', 'credit back', 'repay'],
  ['cancel', 'cancellation', 'terminate', 'termination', 'discontinue', 'unsubscribe'],
  ['resolve', 'resolution', 'fix', 'solve', 'sort out', 'sorted', 'repair'],
  ['problem', 'issue', 'trouble', 'fault', 'error', 'glitch'],
  ['injure', 'injury', 'hurt', 'harm', 'wound'],
  ['price', 'cost', 'fee', 'charge', 'rate', 'pricing'],
  ['pay', 'payment', 'charge', 'paid'],
  ['buy', 'purchase', 'order'],
  ['supervisor', 'manager', 'superior'],
  ['discount', 'promotion', 'promo', 'deal', 'half price', 'percent off', 'reduce price', 'reduced price',
    'coupon', 'rebate'],
  ['transfer', 'put through', 'forward'],
  ['verify', 'verification', 'confirm', 'authenticate', 'validate'],
  ['identity', 'identification', 'id', 'date of birth', 'security question'],
  ['apologise', 'apologize', 'apology', 'sorry'],
  ['callback', 'call back', 'ring back'],
  ['appointment', 'booking', 'book', 'reservation', 'reserve', 'schedule'],
  ['speak', 'talk'],
  ['restart', 'reboot', 'reset', 'power cycle'],
  ['increase', 'raise', 'rise', 'go up', 'higher', 'hike'],
  ['decrease', 'reduce', 'lower', 'go down', 'cut'],
  ['help', 'assist', 'assistance'],
  ['agree', 'accept', 'consent'],
  ['angry', 'upset', 'frustrated', 'frustrate', 'annoyed', 'annoy', 'mad', 'furious'],
  ['happy', 'satisfied', 'pleased', 'glad'],
  ['deliver', 'delivery', 'ship', 'shipment', 'shipping'],
  ['phone', 'telephone', 'mobile', 'cell'],
  ['damage', 'damaged', 'broken', 'broke', 'faulty', 'defective'],
  ['complaint', 'complain'],
  ['late', 'delay', 'delayed', 'overdue'],
  ['lose', 'lost', 'missing', 'steal', 'stolen'],
  ['password', 'passcode', 'pin'],
  ['subscription', 'membership', 'plan'],
  ['email', 'e-mail'],
  ['address', 'residence'],
  ['replace', 'replacement', 'new one'],
  ['wait', 'hold'],
  ['recommend', 'suggest', 'advise'],
  ['upgrade', 'upsell'],
  ['deactivate', 'deactivation', 'block', 'freeze', 'disable', 'suspend'],
  ['compensate', 'compensation', 'credit', 'goodwill'],
  ['technician', 'engineer', 'tech'],
];

/** The greeting group: summaries treat it as courtesy boilerplate. */
export const GREETING_GROUP = 0;

interface SynonymIndex {
  single: Map<string, number[]>;
  phrases: Map<string, { words: string[]; group: number }[]>;
}

const SYNONYMS: SynonymIndex = (() => {
  const single = new Map<string, number[]>();
  const phrases = new Map<string, { words: string[]; group: number }[]>();
  SYNONYM_GROUPS.forEach((group, gi) => {
    for (const entry of group) {
      const words = entry.split(' ');
      const head = words[0];
      if (head === undefined) continue;
      if (words.length === 1) {
        const list = single.get(head) ?? [];
        list.push(gi);
        single.set(head, list);
      } else {
        const list = phrases.get(head) ?? [];
        list.push({ words, group: gi });
        phrases.set(head, list);
      }
    }
  });
  return { single, phrases };
})();

/** "sorry" asking to hear again is no apology: "sorry what was that", "sorry could you repeat that", "sorry come again". */
function asksAgain(toks: Token[], i: number): boolean {
  const [a, b, c] = [toks[i + 1]?.normal, toks[i + 2]?.normal, toks[i + 3]?.normal];
  return a === 'what' || a === 'pardon' || a === 'come' || ((a === 'could' || a === 'can') && b === 'you' && (c === 'repeat' || c === 'say'));
}

/** "you're welcome", "you are most welcome": the answer to a thanks, no greeting ("welcome to acme" is one). */
function answersThanks(toks: Token[], i: number): boolean {
  const before = toks.slice(Math.max(0, i - 3), i).map((t) => t.normal);
  return before.includes("you're") || before.includes('youre') || (before.includes('you') && (before.includes('are') || before.includes("'re")));
}

/** Tags each token with the groups of its lemma or form, and of any multi-word entry starting at it. */
export function assignGroups(toks: Token[]): void {
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === undefined) continue;
    if (t.normal === 'sorry' && asksAgain(toks, i)) continue;
    if (t.normal === 'welcome' && answersThanks(toks, i)) continue;
    for (const key of [t.lemma, t.normal]) {
      for (const g of SYNONYMS.single.get(key) ?? []) if (!t.groups.includes(g)) t.groups.push(g);
      for (const p of SYNONYMS.phrases.get(key) ?? []) {
        let ok = true;
        for (let k = 1; k < p.words.length; k++) {
          const o = toks[i + k];
          if (o === undefined || (o.lemma !== p.words[k] && o.normal !== p.words[k])) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        for (let k = 0; k < p.words.length; k++) {
          const o = toks[i + k];
          if (o !== undefined && !o.groups.includes(p.group)) o.groups.push(p.group);
        }
      }
    }
  }
}
