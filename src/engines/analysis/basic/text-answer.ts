// Text questions: rank units by term rarity, wh-phrase and fitting entities; answer with the
// entity the question's intent wants when one is near, else with the best sentence (or its reply).
import { renderEntity } from './entity-text.ts';
import { type AnswerBody, uniqueEvidence } from './evidence.ts';
import { clamp, round2, truncate } from './format.ts';
import { isInterrogativeMatch, type Match } from './matching.ts';
import { nameAnswer } from './names.ts';
import { type Intent, INTENT_TYPES, type Query } from './query.ts';
import type { Entity, Unit } from './tokens.ts';
import { POLITE } from './lexicon.ts';
import { GREETING_GROUP } from './synonyms.ts';

const ANSWER_MAX_CHARS = 300;

function noAnswer(): AnswerBody<string> {
  return { answer: '', confidence: 0, evidence: [] };
}

interface Candidate {
  m: Match;
  /** The unit asks something, so its answer may be in the reply. */
  inq: boolean;
  /** The next unit: the reply when this one asks. */
  resp: Unit | undefined;
  score: number;
}

/** The unit asks with this wh-phrase ("how long"), not merely contains it. */
function hasWh(u: Unit, wh: string): boolean {
  const parts = wh.split(' ');
  for (let i = 0; i < u.toks.length; i++) {
    if (parts.every((p, k) => u.toks[i + k]?.normal === p) && u.toks[i]?.inq === true) return true;
  }
  return false;
}

function entitiesOfTypes(u: Unit, types: string[]): boolean {
  return u.ents.some((e) => types.includes(e.type));
}

/** Entity of the wanted types closest to the matched words. */
function findEntity(u: Unit, types: string[], anchors: number[], intent: Intent): string | null {
  for (const type of types) {
    const cands = u.ents.filter((e) => e.type === type);
    if (cands.length === 0) continue;
    const dist = (e: Entity): number =>
      anchors.length === 0 ? e.from : Math.min(...anchors.map((a) => (a < e.from ? e.from - a : a > e.to ? a - e.to : 0)));
    const sorted = [...cands].sort((a, b) => dist(a) - dist(b) || a.from - b.from);
    for (const e of sorted) {
      const text = renderEntity(u, e, intent);
      if (text !== null && text.trim() !== '') return text.trim();
    }
  }
  return null;
}

/** Verbs of a change ("moved you to tuesday", "extended it until monday"); lemmas. */
const CHANGE_VERBS = new Set(['move', 'change', 'switch', 'rebook', 'reschedule', 'extend', 'push', 'bring', 'update', 'book', 'set']);
/** Words between a change and what it became ("… to", "… until"). */
const CHANGED_TO = new Set(['to', 'until', 'till', 'for']);

/**
 * An entity a unit says something was changed to: after a change verb and "to" / "until" ("i've
 * moved you to tuesday at four fifteen"), after "now" ("you're now checking out monday"), or
 * before "instead" ("monday instead").
 */
function changedTo(u: Unit, types: string[]): Entity | null {
  const near = (from: number, to: number, test: (t: Unit['toks'][number]) => boolean) => u.toks.slice(Math.max(0, from), Math.max(0, to)).some(test);
  for (const e of u.ents.filter((x) => types.includes(x.type))) {
    const before = u.toks[e.from - 1];
    const viaTo = before !== undefined && CHANGED_TO.has(before.normal) && near(e.from - 5, e.from - 1, (t) => CHANGE_VERBS.has(t.lemma));
    const viaNow = near(e.from - 4, e.from, (t) => t.normal === 'now');
    const instead = u.toks[e.to + 1]?.normal === 'instead' || u.toks[e.to]?.normal === 'instead';
    if (viaTo || viaNow || instead) return e;
  }
  return null;
}

/**
 * For a question about what something became: the last unit of the call that says what a thing
 * was changed to, with the wanted kind of entity, and that entity.
 */
function changeAnswer(q: Query, units: Unit[], types: string[]): AnswerBody<string> | null {
  for (let i = units.length - 1; i >= 0; i--) {
    const u = units[i]!;
    if (u.hasInq) continue;
    const e = changedTo(u, types);
    if (e === null) continue;
    const text = renderEntity(u, e, q.intent);
    if (text === null || text.trim() === '') continue;
    return { answer: truncate(text.trim(), ANSWER_MAX_CHARS), confidence: 0.55, evidence: uniqueEvidence([u]) };
  }
  return null;
}

/** Units with a positive score, best first (earlier first on ties). */
function rankCandidates(q: Query, units: Unit[], matches: Match[], types: string[]): Candidate[] {
  const scored = matches.map((m): Candidate => {
    const inq = m.unit.hasInq && (m.hits.size === 0 || isInterrogativeMatch(q, m) || m.unit.toks[m.unit.toks.length - 1]?.inq === true);
    const resp = units[m.unit.idx + 1];
    let score = m.rarity;
    const whMatch = q.wh !== null && hasWh(m.unit, q.wh);
    if (whMatch && (m.hits.size > 0 || (q.wh?.includes(' ') ?? false))) score += 0.3;
    if (types.length > 0 && (m.hits.size > 0 || whMatch)) {
      if (entitiesOfTypes(m.unit, types) || (inq && resp !== undefined && entitiesOfTypes(resp, types))) score += 0.25;
    }
    return { m, inq, resp, score };
  });
  return scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.m.unit.idx - b.m.unit.idx);
}

/**
 * An entity of the wanted types from the top candidates: the reply to a question first, then the
 * unit itself (nearest the matched words), then the next unit of a statement at a penalty.
 */
function entityAnswer(q: Query, ranked: Candidate[], types: string[]): AnswerBody<string> | null {
  const anchorsOf = (m: Match): number[] => [...m.hits.values()].flat();
  const top = ranked.slice(0, 3);
  const attempts: { unit: Unit; anchors: number[]; source: Candidate; penalty: number }[] = [];
  for (const s of top) {
    if (s.inq && s.resp !== undefined) attempts.push({ unit: s.resp, anchors: [], source: s, penalty: 0 });
    attempts.push({ unit: s.m.unit, anchors: anchorsOf(s.m), source: s, penalty: 0 });
  }
  for (const s of top) {
    if (!s.inq && s.resp !== undefined) attempts.push({ unit: s.resp, anchors: [], source: s, penalty: 0.15 });
  }
  // The intent's primary entity type anywhere in the candidates beats a fallback type.
  const passes = [types.slice(0, 1), types];
  for (const a of passes.flatMap((ts) => attempts.map((at) => ({ ...at, ts })))) {
    const found = findEntity(a.unit, a.ts, a.anchors, q.intent);
    if (found !== null) {
      return {
        answer: truncate(found, ANSWER_MAX_CHARS),
        confidence: round2(clamp(0.45 + 0.5 * a.source.m.coverage - a.penalty, 0.2, 0.95)),
        evidence: uniqueEvidence([a.unit, a.source.m.unit, ranked[1]?.m.unit]),
      };
    }
  }
  return null;
}

/**
 * A name near the best unit, or in the reply to it ("and your name please" / "helen brooks").
 * The agent speaks first in a call, so the agent's name is in the opening introduction and the
 * customer's is not.
 */
function nameOf(q: Query, units: Unit[], best: Candidate, answerUnit: Unit): AnswerBody<string> | null {
  const confidence = 0.4 + 0.5 * best.m.coverage;
  if (q.role === 'agent') {
    const intro = nameAnswer(units.slice(0, 2), confidence);
    if (intro !== null) return intro;
  }
  const near = [answerUnit, best.m.unit].filter((u) => q.role !== 'customer' || u.idx > 0);
  const name = notTheAgents(q, units, nameAnswer(near, confidence));
  if (name !== null || best.resp === undefined || best.resp.hasInq) return name;
  return notTheAgents(q, units, nameAnswer([best.resp], confidence - 0.1, true));
}

/** The name the call opens with is the agent's: never the answer to the customer's name. */
function notTheAgents(q: Query, units: Unit[], found: AnswerBody<string> | null): AnswerBody<string> | null {
  if (found === null || q.role !== 'customer') return found;
  const agents = nameAnswer(units.slice(0, 2), 0)?.answer;
  return agents !== undefined && found.answer.toLowerCase() === agents.toLowerCase() ? null : found;
}

/**
 * How a caller says what they want: first a wish in the first person ("i would like", "i need",
 * "i'm calling about"), then a request ("can i get", "could you"). Words as wink reads them ("i'd"
 * is "i" and "would"; "i'm" stays one word). A last part of words in OPTIONAL may be left out ("i
 * would like a refund").
 */
type Opening = readonly (readonly string[])[];
const WISHES: readonly Opening[] = [
  [['i'], ['would', 'd'], ['like', 'love'], ['to']],
  [['i'], ['want', 'wanted', 'need', 'needed'], ['to']],
  [['i'], ['wanna']],
  [["i'm", 'im', 'i am', 'i was'], ['calling', 'ringing', 'phoning'], ['to', 'about', 'because', 'regarding']],
  [["i'm", 'im', 'i am', 'i was'], ['looking', 'hoping', 'trying'], ['for', 'to']],
  [["i'm", 'im', 'i am', 'i was'], ['wondering'], ['if i could', 'if you could', 'if we could', 'whether i could', 'whether you could', 'if']],
];
const REQUESTS: readonly Opening[] = [
  [['is it possible', 'would it be possible'], ['to', 'for me to', 'for you to']],
  [['can', 'could', 'may'], ['i', 'we'], ['get', 'have']],
  [['can', 'could', 'would'], ['you'], ['please']],
];
const OPTIONAL = new Set(['to', 'for', 'about', 'because', 'regarding', 'please']);
const REQUEST_MAX_WORDS = 12;
/** Words of courtesy cut from the ends of a request ("a refund please"). */
const COURTESY = new Set(['please', 'thanks', 'thank', 'you', 'so', 'just', 'also']);

/** The token index after `part` matched at `k` ("i am" takes two tokens), or -1. */
function matchPart(normal: string[], k: number, part: readonly string[]): number {
  for (const option of part) {
    const words = option.split(' ');
    if (words.every((word, j) => normal[k + j] === word)) return k + words.length;
  }
  return -1;
}

/**
 * The words after a request's opening in `u` up to the end of its clause ("i would like a refund
 * please, my blender…" → "a refund"), or null. A unit that asks with a wh-word ("how can i help")
 * requests nothing; a request for the other party's details ("i need your account number") is the
 * agent's, not one.
 */
function requestIn(u: Unit, openings: readonly Opening[]): string | null {
  const normal = u.toks.map((t) => t.normal);
  if (u.toks.some((t) => t.inq && WH_ASKING.has(t.normal))) return null;
  for (const opening of openings) {
    for (let i = 0; i < normal.length; i++) {
      let k = i;
      for (const [p, part] of opening.entries()) {
        const next = matchPart(normal, k, part);
        if (next >= 0) k = next;
        else if (p === opening.length - 1 && part.every((word) => OPTIONAL.has(word))) break;
        else {
          k = -1;
          break;
        }
      }
      if (k < 0 || k >= u.toks.length) continue;
      let from = k;
      while (from < u.toks.length && COURTESY.has(normal[from]!)) from++;
      let to = from;
      // The clause ends at punctuation, at "please", or after a dozen words in an unpunctuated run.
      while (to + 1 < u.toks.length && to - from < REQUEST_MAX_WORDS - 1 && !endsClause(u, to + 1) && normal[to + 1] !== 'please') to++;
      while (to >= from && COURTESY.has(normal[to]!)) to--;
      if (to < from || normal[from] === 'your' || DETAILS_ASKED.has(normal[from]!) || !u.toks.slice(from, to + 1).some((t) => t.content)) continue;
      return u.text.slice(u.toks[from]!.start, u.toks[to]!.end).trim();
    }
  }
  return null;
}
/** Punctuation that ends a clause: not a hyphen inside a word ("ninety-day"). */
const endsClause = (u: Unit, i: number): boolean => u.toks[i]!.pos === 'PUNCT' && !(u.toks[i]!.value === '-' && u.toks[i]!.start === u.toks[i - 1]?.end);
/** What an agent asks a caller to do with their details ("can you confirm the address"): no request of the caller's. */
const DETAILS_ASKED = new Set(['confirm', 'tell', 'give', 'spell', 'verify', 'read', 'provide', 'repeat', 'hold', 'state']);
/** Wh-words whose question offers help rather than asks for it ("how can i help"). */
const WH_ASKING = new Set(['how', 'what', 'where', 'when', 'why', 'who', 'which']);

/**
 * What a party asked for: the first wish said in the first person, else the first request, else
 * (uncertain) the first sentence that says more than hello.
 */
function requestAnswer(units: Unit[], next: boolean): AnswerBody<string> | null {
  if (next) {
    // The second request of the call, in the order they were said.
    const said = units.flatMap((u) => {
      const wanted = requestIn(u, [...WISHES, ...REQUESTS]);
      return wanted === null ? [] : [{ u, wanted }];
    });
    const second = said.find((r) => r.wanted !== said[0]?.wanted);
    return second ? { answer: truncate(second.wanted, ANSWER_MAX_CHARS), confidence: 0.45, evidence: uniqueEvidence([second.u]) } : null;
  }
  for (const [openings, confidence] of [[WISHES, 0.6], [REQUESTS, 0.45]] as const) {
    for (const u of units) {
      const wanted = requestIn(u, openings);
      if (wanted !== null) return { answer: truncate(wanted, ANSWER_MAX_CHARS), confidence, evidence: uniqueEvidence([u]) };
    }
  }
  // Said without a request's words: the first sentence after the agent's opening that says more than hello.
  return topicAnswer(units.length > 2 ? units.slice(1) : units);
}

export function answerText(q: Query, units: Unit[], matches: Match[]): AnswerBody<string> {
  if (units.length === 0) return noAnswer();
  // What was asked for is rarely asked in the call's words ("what did the customer ask for?" vs
  // "i would like a refund"): read how people say what they want.
  if (q.asksRequest) return requestAnswer(units, q.asksNextRequest) ?? noAnswer();
  const types = q.intent !== null && q.intent !== 'name' ? INTENT_TYPES[q.intent] : [];
  const ranked = rankCandidates(q, units, matches, types);
  const best = ranked[0];
  if (best === undefined) {
    // Names are rarely asked with words that occur in the call ("what is the agent's
    // name?" vs "this is paula"): fall back to the first self-introduction.
    if (q.intent === 'name') return notTheAgents(q, units, nameAnswer(q.role === 'customer' ? units.slice(1) : units, 0.3)) ?? noAnswer();
    // What a call was about is rarely asked in the call's words ("what did the customer call
    // about?" vs "my parcel never arrived"): the first sentence that says more than hello.
    if (q.asksTopic) return topicAnswer(units) ?? noAnswer();
    return noAnswer();
  }

  if (types.length > 0 && q.asksChange) {
    const changed = changeAnswer(q, units, types);
    if (changed !== null) return changed;
  }
  if (types.length > 0) {
    const found = entityAnswer(q, ranked, types);
    if (found !== null) return found;
  }

  const answerUnit = best.inq && best.resp !== undefined && !best.resp.hasInq ? best.resp : best.m.unit;
  // "What was the reason for the call?" finds "thank you for calling": hello is no reason.
  if (q.asksTopic && types.length === 0 && !saysWhy(answerUnit)) return topicAnswer(units) ?? noAnswer();
  if (q.intent === 'name') {
    const name = nameOf(q, units, best, answerUnit);
    if (name !== null) return name;
  }
  return {
    answer: truncate(answerUnit.text, ANSWER_MAX_CHARS),
    confidence: round2(clamp(0.25 + 0.5 * best.m.coverage, 0.1, 0.8)),
    evidence: uniqueEvidence([answerUnit, best.m.unit, ranked[1]?.m.unit]),
  };
}

/** A unit that says more than hello: two words beyond greetings, courtesies and names. */
const saysMoreThanHello = (u: Unit): boolean => u.toks.filter((t) => t.content && !POLITE.has(t.lemma) && !POLITE.has(t.normal) && !t.groups.includes(GREETING_GROUP) && t.ent !== 'PERSON').length >= 2;

/** An agent's opening: who is speaking and an offer to help ("this is dana", "acme support mike speaking", "how can i help"). */
const OPENING = /\b(my name is|this is|speaking|you've reached|you have reached|how (can|may) i (help|assist)|what can i do for you)\b/;
const opens = (u: Unit): boolean => OPENING.test(u.toks.map((t) => t.normal).join(' '));

/** A unit that may say what the call is about: more than hello, and not the agent's opening. */
const saysWhy = (u: Unit): boolean => saysMoreThanHello(u) && !opens(u);

/** The first unit that says more than hello, past the agent's opening, as an uncertain answer to what the call was about. */
function topicAnswer(units: Unit[]): AnswerBody<string> | null {
  const unit = units.find(saysWhy);
  return unit ? { answer: truncate(unit.text, ANSWER_MAX_CHARS), confidence: 0.3, evidence: uniqueEvidence([unit]) } : null;
}
