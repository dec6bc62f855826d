// An analysis question read into weighted terms, the kind of answer it wants (intent), its
// wh-phrase, and whether it is itself negated ("did the customer not ask...").
import { isNegativeVerb, NEGATORS, WH_FOLLOWERS, WH_WORDS } from './lexicon.ts';
import { assignGroups } from './synonyms.ts';
import { isContent, readSpan } from './tokens.ts';
import type { Wink } from './wink.ts';

/** Words naming the parties of a call; rarely spoken, so weak evidence. */
const ROLE_WORDS = new Set([
  'agent', 'customer', 'caller', 'client', 'representative', 'rep', 'operator', 'user', 'speaker', 'consumer',
  'advisor', 'adviser', 'associate', 'staff', 'party',
]);
const AGENT_ROLES = new Set(['agent', 'representative', 'rep', 'operator', 'advisor', 'adviser', 'associate', 'staff']);
const CUSTOMER_ROLES = new Set(['customer', 'caller', 'client', 'consumer', 'user']);
/** Reporting / framing verbs of analysis questions ("did the agent mention..."). */
const META_WORDS = new Set([
  'ask', 'mention', 'say', 'tell', 'state', 'discuss', 'request', 'inquire', 'enquire', 'bring', 'provide', 'give',
  'express', 'indicate', 'explain', 'offer', 'want', 'need', 'try', 'able', 'agree', 'suggest', 'recommend', 'propose',
  'advise', 'warn', 'inform', 'remind',
]);
/** A question about asking ("did the customer ask...") is answered by the asking itself, not a reply. */
const ASK_WORDS = new Set(['ask', 'request', 'inquire', 'enquire', 'question']);
/** A question about accepting ("did the customer accept / agree to...") is settled by a reply. */
const ACCEPT_WORDS = new Set(['accept', 'agree', 'consent']);

/** Question concept words that a sentence can satisfy with an entity of a type. */
const CONCEPT_ENTITY: ReadonlyMap<string, string> = new Map([
  ['price', 'MONEY'], ['cost', 'MONEY'], ['fee', 'MONEY'], ['charge', 'MONEY'], ['amount', 'MONEY'],
  ['total', 'MONEY'], ['pay', 'MONEY'], ['payment', 'MONEY'], ['spend', 'MONEY'], ['owe', 'MONEY'],
  ['money', 'MONEY'], ['time', 'TIME'], ['date', 'DATE'], ['day', 'DATE'],
]);

/** The kind of answer a text question wants. */
export type Intent = 'money' | 'count' | 'time' | 'date' | 'duration' | 'id' | 'email' | 'name' | 'percent' | null;

/** Entity types that answer each intent, best first. */
export const INTENT_TYPES: Record<Exclude<Intent, null | 'name'>, string[]> = {
  money: ['MONEY', 'CARDINAL'],
  count: ['CARDINAL', 'ID'],
  time: ['TIME', 'DATE'],
  date: ['DATE', 'TIME', 'DURATION', 'ORDINAL'],
  duration: ['DURATION', 'DATE', 'TIME'],
  id: ['ID', 'CARDINAL', 'EMAIL'],
  email: ['EMAIL'],
  percent: ['PERCENT', 'CARDINAL'],
};

export interface Term {
  /** Token forms compared against the transcript's tokens. */
  lemma: string;
  normal: string;
  stem: string;
  groups: number[];
  weight: number;
  /** An entity type that satisfies the term ("price" is matched by any MONEY). */
  concept: string | null;
  /** A verb of offering ("did the agent offer…", "was a refund offered"), met by a speaker's commitment. */
  offering: boolean;
  /** A verb of asking ("did the customer ask for…"), met by a request in the speaker's own form. */
  asking: boolean;
}

/** Question verbs that a speaker's own commitment satisfies: "we will refund it" offers a refund. */
const OFFER_VERBS = new Set(['offer', 'propose', 'promise']);
/** Words before a noun: "accept the offer" names a thing, "did the agent offer" (tagged a noun too) an act. */
const DETERMINERS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'your', 'my', 'his', 'her', 'their', 'our', 'its', 'any', 'no', 'special', 'best', 'first', 'new']);

export interface Query {
  terms: Term[];
  totalWeight: number;
  /** The question is negated: a boolean answer is flipped. */
  negated: boolean;
  /**
   * Negated by a negative verb ("did the customer decline the warranty"): that presupposes the
   * thing was on offer, so a call that never mentions it answers false, not true.
   */
  negVerb: boolean;
  askQuestion: boolean;
  /** The party the question is about, when it names one. */
  role: 'agent' | 'customer' | null;
  /** Indices of accepting terms ("accept", "agree to"). */
  acceptTerms: number[];
  /** "what", "how long"...: the first wh-phrase. */
  wh: string | null;
  intent: Intent;
  /** The question asks what something became ("what is the new date", "when is it now due"): the answer is what it was changed to. */
  asksChange: boolean;
  /** The question asks what the call (or a party) was about or why ("what did the customer call about", "the reason for calling"). */
  asksTopic: boolean;
  /** The question asks what a party asked for or wanted ("what did the customer ask for", "what does the caller need"). */
  asksRequest: boolean;
  /** It asks for a request after the first ("what else did the customer ask for", "… after that"). */
  asksNextRequest: boolean;
  /**
   * It asks what happened ("did the customer upgrade?"), not what was said, offered, wanted or
   * possible: words of what could or would happen (irrealis.ts) do not answer it.
   */
  factual: boolean;
  /**
   * It asks whether a thing was spoken of ("did the agent mention the fee?", "was the customer told
   * about the deposit?"): "there's no fee" speaks of it, so a negated statement answers yes.
   */
  mentions: boolean;
}

/** Words that open a clause of its own inside a question: its negators do not negate the question. */
const SUBORDINATORS = new Set(['if', 'when', 'whenever', 'because', 'since', 'unless', 'while', 'before', 'after', 'until', 'although', 'though', 'whether', 'once']);
/** Lemmas of speaking of a thing, whatever is said of it ("bring" only as "bring up": "did they bring the receipt" is no mention). */
const MENTION_WORDS = new Set(['mention', 'discuss']);
/** Lemmas of telling, which speak of a thing when followed by "about" or "of" ("told about the fee"); not asking, which a request answers. */
const TELL_WORDS = new Set(['tell', 'inform', 'warn', 'remind', 'notify', 'talk']);

/** Question words for which what could or would happen is the answer: saying, offering, wanting, being able. */
const NOT_FACTUAL = new Set([
  'can', 'could', 'may', 'might', 'would', 'should', 'offer', 'suggest', 'recommend', 'propose', 'tell', 'mention', 'say',
  'explain', 'inform', 'warn', 'advise', 'ask', 'request', 'want', 'need', 'like', 'wish', 'hope', 'try', 'able',
  'allow', 'option', 'possible', 'discuss', 'talk', 'describe', 'promise', 'remind', 'told', 'available',
]);

/** Lemmas of wanting, asked with "what": "what did the customer want / need / request". */
const REQUEST_ASKED = new Set(['want', 'need', 'request', 'require']);
const NEXT_REQUEST = new Set(['after', 'also', 'add', 'another', 'second', 'next', 'then']);
const WHAT_AUXILIARIES = new Set(['did', 'does', 'do', 'was', 'is', 'were', 'has', 'had', 'would']);

/** Words that ask what a call was about. */
const TOPIC_ASKED = new Set(['reason', 'reasons', 'purpose', 'topic', 'subject']);

/** Words that ask for what a thing became rather than what it was. */
const CHANGE_ASKED = new Set(['new', 'now', 'instead', 'changed', 'updated', 'rescheduled', 'moved']);

function detectIntent(words: string[]): Intent {
  const text = ` ${words.join(' ')} `;
  const has = (s: string): boolean => text.includes(` ${s} `);
  // wh-phrases first: they say what kind of answer is wanted...
  if (has('how much') || has('how expensive')) return 'money';
  if (has('how many') || has('how often')) return 'count';
  if (has('how long')) return 'duration';
  if (has('what time') || has('which time')) return 'time';
  if (has('when') || has('what date') || has('what day') || has('which day')) return 'date';
  // ...then the noun asked about ("what is the price / email / account number").
  if (has('email') || has('e-mail')) return 'email';
  if (has('price') || has('cost') || has('fee') || has('amount')) return 'money';
  if (has('number of')) return 'count';
  if (has('percent') || has('percentage')) return 'percent';
  if (has('duration')) return 'duration';
  if (has('date') || has('birthday') || has('day')) return 'date';
  if (has('number') || has('digits') || has('code') || has('id') || has('pin') || has('reference')) return 'id';
  if (has('who') || has('name')) return 'name';
  return null;
}

export function buildQuery(w: Wink, question: string): Query {
  const span = readSpan(w, question);
  const toks = span.toks;
  for (const t of toks) t.content = isContent(t);
  assignGroups(toks);
  const words = toks.map((t) => t.normal);
  const intent = detectIntent(words);
  let wh: string | null = null;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === undefined || !WH_WORDS.has(t.normal)) continue;
    const next = toks[i + 1];
    wh = next !== undefined && WH_FOLLOWERS.has(next.normal) ? `${t.normal} ${next.normal}` : t.normal;
    break;
  }
  // "did the customer decline the offer" asks "did the customer not take the offer"; a negator
  // and a negative verb together ("did they not refuse") cancel out.
  // Only the main clause's: "did the agent mention a fee if the customer isn't home?" is not negated.
  const subordinate = toks.findIndex((t, i) => i > 1 && SUBORDINATORS.has(t.normal));
  const main = subordinate < 0 ? toks : toks.slice(0, subordinate);
  const negWord = main.some((t) => NEGATORS.has(t.normal));
  const negVerb = main.some((t) => isNegativeVerb(t.lemma, t.pos));
  const negated = negWord !== negVerb;
  const askQuestion = toks.some((t) => ASK_WORDS.has(t.lemma));
  const seen = new Set<string>();
  const terms: Term[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === undefined || !t.content) continue;
    if (NEGATORS.has(t.lemma) || isNegativeVerb(t.lemma, t.pos)) continue;
    const prev = toks[i - 1];
    // "how long", "how much": the wh-phrase is the intent, not a content word.
    if (prev !== undefined && WH_WORDS.has(prev.normal) && WH_FOLLOWERS.has(t.normal)) continue;
    if (seen.has(t.lemma)) continue;
    seen.add(t.lemma);
    let weight = 1;
    if (ROLE_WORDS.has(t.lemma)) weight = 0.1;
    else if (META_WORDS.has(t.lemma)) weight = 0.35;
    else if (t.pos === 'VERB') weight = 1.5;
    else if (t.pos === 'ADV') weight = 0.6;
    terms.push({ lemma: t.lemma, normal: t.normal, stem: t.stem, groups: t.groups, weight, concept: CONCEPT_ENTITY.get(t.lemma) ?? null, offering: OFFER_VERBS.has(t.lemma) && !DETERMINERS.has(prev?.normal ?? ''), asking: ASK_WORDS.has(t.lemma) && !DETERMINERS.has(prev?.normal ?? '') });
  }
  // Role words are rarely spoken ("the agent", "the customer"), so a unit is not marked down for
  // lacking them; they still count when they do occur.
  const spoken = terms.filter((t) => !ROLE_WORDS.has(t.lemma));
  const totalWeight = (spoken.length > 0 ? spoken : terms).reduce((s, t) => s + t.weight, 0);
  const acceptTerms = terms.flatMap((t, ti) => (ACCEPT_WORDS.has(t.lemma) ? [ti] : []));
  const role = terms.some((t) => AGENT_ROLES.has(t.lemma)) ? 'agent' : terms.some((t) => CUSTOMER_ROLES.has(t.lemma)) ? 'customer' : null;
  const asksChange = intent !== null && words.some((word) => CHANGE_ASKED.has(word));
  const asksTopic = (wh === 'what' && words.includes('about')) || wh === 'why' || words.some((word) => TOPIC_ASKED.has(word));
  const lemmas = toks.map((t) => t.lemma);
  // "what did / does / was / else …": a "what size did they want" asks for a size, not for the request.
  const afterWhat = words[words.indexOf('what') + 1] ?? '';
  const asksRequest = wh === 'what' && intent === null && (WHAT_AUXILIARIES.has(afterWhat) || afterWhat === 'else') && (lemmas.some((l) => REQUEST_ASKED.has(l)) || ((lemmas.includes('ask') || lemmas.includes('look')) && words.includes('for')));
  // "what else did they ask for", "… after that", "what did they add to the request": the next one.
  const asksNextRequest = asksRequest && (afterWhat === 'else' || lemmas.some((l) => NEXT_REQUEST.has(l)));
  const factual = !toks.some((t) => NOT_FACTUAL.has(t.normal) || NOT_FACTUAL.has(t.lemma));
  const within = (i: number, words: string[]) => toks.slice(i + 1, i + 4).some((o) => words.includes(o.normal));
  const mentions = main.some((t, i) => MENTION_WORDS.has(t.lemma) || MENTION_WORDS.has(t.normal) || (t.lemma === 'bring' && within(i, ['up'])) || ((TELL_WORDS.has(t.lemma) || t.normal === 'told') && within(i, ['about', 'of'])));
  return { terms, totalWeight, negated, negVerb: negVerb && !negWord, askQuestion, role, acceptTerms, wh, intent, asksChange, asksTopic, asksRequest, asksNextRequest, factual, mentions };
}
