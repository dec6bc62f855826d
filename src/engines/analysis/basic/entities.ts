// Entity rules for recogniser output: wink's lite NER knows "$49.99" and "March 3rd" but not
// "thirty six dollars and ninety nine cents", "march third" or "four four seven nine two one".
import { CURRENCY_WORDS, digitOf, isNumberToken, isOrdinalToken, numberGroups, numberRunEnd, TENS } from './spoken-numbers.ts';
import type { Entity, Token } from './tokens.ts';

const MONTHS = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

const DURATION_UNITS = new Set([
  'second', 'minute', 'hour', 'day', 'week', 'month', 'year', 'seconds', 'minutes', 'hours', 'days', 'weeks',
  'months', 'years', 'night', 'nights', 'business', 'working',
]);
const TIME_PREPS = new Set(['at', 'around', 'by', 'until', 'till', 'before', 'after', 'from']);
const DAY_PARTS = new Set(['morning', 'afternoon', 'evening', 'night', 'tonight']);
const EMAIL_TLDS = new Set(['com', 'net', 'org', 'edu', 'gov', 'io', 'co', 'uk', 'info', 'biz', 'us', 'ca']);

/** Puts `e` in place of every entity it overlaps, keeping `ents` in order. */
function setEntity(ents: Entity[], e: Entity): void {
  for (let i = ents.length - 1; i >= 0; i--) {
    const o = ents[i];
    if (o !== undefined && o.from <= e.to && e.from <= o.to) ents.splice(i, 1);
  }
  ents.push(e);
  ents.sort((a, b) => a.from - b.from);
}

function entityAt(ents: Entity[], i: number): Entity | undefined {
  return ents.find((e) => e.from <= i && i <= e.to);
}

/** Adds the spoken forms wink's lite NER misses; each rule may replace the entities it overlaps. */
export function refineEntities(toks: Token[], ents: Entity[]): void {
  markIds(toks, ents);
  markMoney(toks, ents);
  markDates(toks, ents);
  markDays(toks, ents);
  markDurations(toks, ents);
  markTimes(toks, ents);
  mergeCardinals(ents);
  markEmails(toks, ents);
  dropBareUnits(toks, ents);
}

/** A unit word alone ("years" in "flown with you for years") is no duration to answer "how long" or "when" with. */
function dropBareUnits(toks: Token[], ents: Entity[]): void {
  for (let i = ents.length - 1; i >= 0; i--) {
    const e = ents[i]!;
    if (e.type === 'DURATION' && e.from === e.to && DURATION_UNITS.has(toks[e.from]?.normal ?? '')) ents.splice(i, 1);
  }
}

/** Spelled-out identifiers: "four four seven nine two one", "p k seven seven three zero", "5 5 1 2 0 9". */
function markIds(toks: Token[], ents: Entity[]): void {
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    let k = i;
    let digits = 0;
    let singles = 0;
    while (k < n) {
      const t = toks[k];
      if (t === undefined) break;
      const d = digitOf(t);
      if (d !== null && (t.type === 'number' ? /^\d+$/.test(t.normal) : true)) {
        digits += d.length;
        if (d.length === 1) singles++;
        k++;
        continue;
      }
      const isLetter = /^[a-z]$/.test(t.normal) && t.normal !== 'a' && t.normal !== 'i' && t.pos !== 'DET';
      if (isLetter) {
        k++;
        continue;
      }
      break;
    }
    if (k - i >= 3 && digits >= 3 && singles >= 2) {
      setEntity(ents, { type: 'ID', from: i, to: k - 1 });
      i = k - 1;
      continue;
    }
    const t = toks[i];
    if (t !== undefined && t.type === 'number' && /^\d[\d-]{4,}$/.test(t.normal) && !/\.\d/.test(t.normal)) {
      const e = entityAt(ents, i);
      if (e === undefined || e.type === 'CARDINAL') setEntity(ents, { type: 'ID', from: i, to: i });
    }
  }
}

/** Money: a number run and a currency word, with "and N cents" after it. */
function markMoney(toks: Token[], ents: Entity[]): void {
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t === undefined || !isNumberToken(t)) continue;
    const runEnd = numberRunEnd(toks, i);
    const cur = toks[runEnd + 1];
    if (cur === undefined || !CURRENCY_WORDS.has(cur.normal)) {
      i = runEnd;
      continue;
    }
    let end = runEnd + 1;
    const and = toks[end + 1];
    const c0 = toks[end + 2];
    if (and !== undefined && and.normal === 'and' && c0 !== undefined && isNumberToken(c0)) {
      const cEnd = numberRunEnd(toks, end + 2);
      const cw = toks[cEnd + 1];
      if (cw !== undefined && (cw.normal === 'cents' || cw.normal === 'cent')) end = cEnd + 1;
    }
    const existing = entityAt(ents, i);
    if (existing === undefined || existing.type !== 'ID') setEntity(ents, { type: 'MONEY', from: i, to: end });
    i = end;
  }
  // "$49.99 and ..." style money entities followed by "and X cents".
  for (const e of [...ents]) {
    if (e.type !== 'MONEY') continue;
    const and = toks[e.to + 1];
    const c0 = toks[e.to + 2];
    if (and?.normal === 'and' && c0 !== undefined && isNumberToken(c0)) {
      const cEnd = numberRunEnd(toks, e.to + 2);
      const cw = toks[cEnd + 1];
      if (cw !== undefined && (cw.normal === 'cents' || cw.normal === 'cent')) setEntity(ents, { type: 'MONEY', from: e.from, to: cEnd + 1 });
    }
  }
}

/** Dates: month and day (and year), or ordinal day "of" month (and year). */
function markDates(toks: Token[], ents: Entity[]): void {
  const n = toks.length;
  const isMonth = (k: number): boolean => {
    const t = toks[k];
    if (t === undefined || !MONTHS.has(t.normal)) return false;
    if (t.normal !== 'may' && t.normal !== 'march') return true;
    const next = toks[k + 1];
    const prev = toks[k - 1];
    return (next !== undefined && (isOrdinalToken(next) || isNumberToken(next))) ||
      (prev !== undefined && ['in', 'on', 'of', 'since', 'until', 'by', 'early', 'late', 'mid', 'last', 'next', 'this'].includes(prev.normal));
  };
  const extendYear = (k: number): number => {
    const t = toks[k + 1];
    if (t === undefined || !isNumberToken(t)) return k;
    const end = numberRunEnd(toks, k + 1);
    return end - k <= 4 ? end : k;
  };
  for (let i = 0; i < n; i++) {
    if (isMonth(i)) {
      let end = i;
      const day = toks[i + 1];
      if (day !== undefined && (isOrdinalToken(day) || isNumberToken(day))) {
        const dayEnt = entityAt(ents, i + 1);
        end = dayEnt !== undefined && dayEnt.type === 'ORDINAL' ? dayEnt.to : i + 1;
        const d2 = toks[end + 1];
        if (dayEnt === undefined && d2 !== undefined && isOrdinalToken(d2) && TENS.has(day.normal)) end += 1;
        end = extendYear(end);
      }
      // Keep wink's own DATE when it is longer ("March 3rd, 2024").
      const wDate = entityAt(ents, i);
      if (wDate !== undefined && wDate.type === 'DATE' && wDate.to > end) end = wDate.to;
      setEntity(ents, { type: 'DATE', from: Math.min(i, wDate?.type === 'DATE' ? wDate.from : i), to: end });
      i = end;
      continue;
    }
    const t = toks[i];
    if (t !== undefined && isOrdinalToken(t)) {
      const oe = entityAt(ents, i);
      const oEnd = oe !== undefined && oe.type === 'ORDINAL' ? oe.to : i;
      const of = toks[oEnd + 1];
      if (of?.normal === 'of' && isMonth(oEnd + 2)) {
        const from = toks[i - 1]?.normal === 'the' ? i - 1 : i;
        setEntity(ents, { type: 'DATE', from, to: extendYear(oEnd + 2) });
        i = oEnd + 2;
      }
    }
  }
}

const WEEKDAYS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);

/**
 * Days that wink leaves in pieces: a weekday and its date ("tuesday the fourteenth", "thursday
 * the twenty first"), a date of this or next month ("the thirtieth of this month"), and a weekday
 * wink calls a duration ("until next monday": the day, "next monday", is the date; a range such as
 * "monday to friday" stays as wink read it).
 */
function markDays(toks: Token[], ents: Entity[]): void {
  /** The ordinal date at `at` ("fourteenth", "twenty first"), to its last token; null where none starts there. */
  const ordinalAt = (at: number): number | null => {
    const o = toks[at];
    if (o === undefined) return null;
    if (TENS.has(o.normal) && toks[at + 1] !== undefined && isOrdinalToken(toks[at + 1]!)) return at + 1;
    return isOrdinalToken(o) ? at : null;
  };
  /** After an ordinal, words that make it no date ("the first thing", "the second time", "first of all"). */
  const notADate = (end: number): boolean => {
    const next = toks[end + 1];
    return next !== undefined && (['thing', 'time', 'one', 'ones', 'call', 'step', 'person'].includes(next.normal) || (next.normal === 'of' && toks[end + 2]?.normal === 'all'));
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t === undefined) continue;
    if (WEEKDAYS.has(t.normal)) {
      const e = entityAt(ents, i);
      if (e !== undefined && e.type !== 'DATE' && e.type !== 'DURATION') continue;
      let from = i;
      let end = i;
      if (e?.type === 'DURATION') {
        const span = toks.slice(e.from, e.to + 1);
        // A range of days is wink's to keep.
        if (span.filter((w) => WEEKDAYS.has(w.normal)).length > 1) {
          i = e.to;
          continue;
        }
        from = e.from;
        while (from < i && ['until', 'till', 'since', 'from', 'by', 'before', 'after'].includes(toks[from]!.normal)) from++;
        end = Math.max(i, e.to);
      } else if (e?.type === 'DATE') {
        from = e.from;
        end = Math.max(i, e.to);
      }
      // "tuesday the fourteenth", "friday the sixth of june"
      const ordinalEnd = toks[end + 1]?.normal === 'the' ? ordinalAt(end + 2) : null;
      if (ordinalEnd !== null && !notADate(ordinalEnd)) {
        end = ordinalEnd;
        const after = entityAt(ents, end + 2);
        if (toks[end + 1]?.normal === 'of' && after?.type === 'DATE') end = after.to;
      }
      setEntity(ents, { type: 'DATE', from, to: end });
      i = end;
      continue;
    }
    // "the thirtieth of this month", "the twenty first of next month"; not "a third of this month's bill"
    const ordinalEnd = toks[i - 1]?.normal === 'the' ? ordinalAt(i) : null;
    if (ordinalEnd !== null && toks[ordinalEnd + 1]?.normal === 'of') {
      const month = entityAt(ents, ordinalEnd + 2);
      if (month?.type === 'DATE' && month.from === ordinalEnd + 2) {
        setEntity(ents, { type: 'DATE', from: i - 1, to: month.to });
        i = month.to;
      }
    }
  }
}

/** Durations: [within] N (to|or) M [business] unit(s). */
function markDurations(toks: Token[], ents: Entity[]): void {
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t === undefined || !isNumberToken(t)) continue;
    const e = entityAt(ents, i);
    if (e !== undefined && (e.type === 'MONEY' || e.type === 'ID' || e.type === 'DATE')) continue;
    let k = numberRunEnd(toks, i);
    const mid = toks[k + 1];
    const second = toks[k + 2];
    if (mid !== undefined && (mid.normal === 'to' || mid.normal === 'or' || mid.normal === '-') && second !== undefined && isNumberToken(second)) {
      k = numberRunEnd(toks, k + 2);
    }
    let u = k + 1;
    if (['more', 'extra', 'additional', 'further'].includes(toks[u]?.normal ?? '')) u++;
    if (toks[u]?.normal === 'business' || toks[u]?.normal === 'working') u++;
    const unit = toks[u];
    if (unit !== undefined && DURATION_UNITS.has(unit.normal) && unit.normal !== 'business' && unit.normal !== 'working') {
      const prev = toks[i - 1];
      const from = prev !== undefined && ['within', 'about', 'around', 'roughly', 'approximately'].includes(prev.normal) ? i - 1 : i;
      setEntity(ents, { type: 'DURATION', from, to: u });
      i = u;
    }
  }
}

/** Times: N [M] followed by am/pm/o'clock/"in the morning", or N [M] after "at", "around"... */
function markTimes(toks: Token[], ents: Entity[]): void {
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t === undefined || !isNumberToken(t)) continue;
    const e = entityAt(ents, i);
    if (e !== undefined && e.type !== 'CARDINAL' && e.type !== 'TIME') continue;
    const end = Math.min(numberRunEnd(toks, i), i + 2);
    const words = toks.slice(i, end + 1).map((x) => x.normal);
    const groups = numberGroups(words);
    const clock = /^\d{1,2}:\d{2}$/.test(t.normal) ||
      (groups !== null && groups.length <= 2 && groups[0] !== undefined && groups[0] >= 1 && groups[0] <= 12 &&
        (groups[1] === undefined || groups[1] < 60));
    if (!clock) continue;
    let to = end;
    const m1 = toks[end + 1];
    let marked = false;
    if (m1 !== undefined && ['am', 'pm', 'a.m.', 'p.m.', "o'clock", 'oclock'].includes(m1.normal)) {
      to = end + 1;
      marked = true;
    } else if (m1 !== undefined && m1.normal === 'in' && toks[end + 2]?.normal === 'the' && DAY_PARTS.has(toks[end + 3]?.normal ?? '')) {
      to = end + 3;
      marked = true;
    } else if (m1 !== undefined && (m1.normal === 'tonight' || (m1.normal === 'at' && toks[end + 2]?.normal === 'night'))) {
      to = m1.normal === 'tonight' ? end + 1 : end + 2;
      marked = true;
    }
    const prev = toks[i - 1];
    const afterPrep = prev !== undefined && TIME_PREPS.has(prev.normal);
    const nextIsUnit = m1 !== undefined && (DURATION_UNITS.has(m1.normal) || CURRENCY_WORDS.has(m1.normal) || m1.normal === 'percent' || m1.pos === 'NOUN' && !marked);
    if (marked || (afterPrep && !nextIsUnit)) {
      setEntity(ents, { type: 'TIME', from: i, to });
      i = to;
    }
  }
}

/** Adjacent cardinals are one number ("seventeen" + "ninety nine"). */
function mergeCardinals(ents: Entity[]): void {
  ents.sort((a, b) => a.from - b.from);
  for (let i = ents.length - 1; i > 0; i--) {
    const a = ents[i - 1];
    const b = ents[i];
    if (a !== undefined && b !== undefined && a.type === 'CARDINAL' && b.type === 'CARDINAL' && a.to + 1 === b.from) {
      a.to = b.to;
      ents.splice(i, 1);
    }
  }
}

/** Spoken e-mail addresses: "john dot smith at gmail dot com". */
function markEmails(toks: Token[], ents: Entity[]): void {
  const n = toks.length;
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t === undefined || t.normal !== 'at') continue;
    let k = i + 1;
    let sawDot = false;
    let lastWasDot = true;
    let end = -1;
    while (k < n) {
      const o = toks[k];
      if (o === undefined) break;
      if (o.normal === 'dot' || o.value === '.') {
        if (lastWasDot) break;
        sawDot = true;
        lastWasDot = true;
      } else if (/^[a-z0-9-]+$/.test(o.normal) && lastWasDot) {
        lastWasDot = false;
        if (sawDot && EMAIL_TLDS.has(o.normal)) end = k;
      } else break;
      k++;
    }
    if (end < 0) continue;
    let from = i - 1;
    const first = toks[from];
    if (first === undefined || !/^[a-z0-9._-]+$/.test(first.normal) || first.stop) continue;
    while (from - 2 >= 0 && (toks[from - 1]?.normal === 'dot' || toks[from - 1]?.normal === 'underscore') && /^[a-z0-9]+$/.test(toks[from - 2]?.normal ?? '')) from -= 2;
    setEntity(ents, { type: 'EMAIL', from, to: end });
    i = end;
  }
}
