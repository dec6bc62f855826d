// Call categories in words, and the blank conditions the editor starts from.
import type { Schemas } from '../api/client.ts';
import { NEGATIVE_SENTIMENT } from './filters.ts';

export type CategoryRule = Schemas['CategoryRule'];
export type Condition = CategoryRule['conditions'][number];
export type ConditionType = Condition['type'];

export const talkMetricNames: Record<Extract<Condition, { type: 'talk' }>['metric'], string> = {
  silence_seconds: 'silence (s)',
  overlap_seconds: 'overlap (s)',
  interruptions: 'interruptions',
  talk_ratio: 'share of the talk (0–1)',
  talk_seconds: 'talk time (s)',
  words_per_minute: 'words per minute',
  longest_turn_seconds: 'longest turn (s)',
};

type TalkCondition = Extract<Condition, { type: 'talk' }>;

/** Silence and overlap are the call's statistics, not a speaker's: they take no speaker. */
export const callWide = (metric: string): boolean => metric === 'silence_seconds' || metric === 'overlap_seconds';

/** A talk condition with another statistic; a call-wide one drops the speaker. */
export function withMetric(condition: TalkCondition, metric: TalkCondition['metric']): TalkCondition {
  const { speaker, ...rest } = condition;
  return callWide(metric) || speaker === undefined ? { ...rest, metric } : { ...rest, speaker, metric };
}

const partNames = { mean: 'over the call', first_third: 'in the first third', last_third: 'in the last third' } as const;

/** The similarity a `similar_to` condition asks for when it names none (the server's default). */
export const SIMILAR_THRESHOLD = 0.6;

export function blankCondition(type: ConditionType): Condition {
  if (type === 'phrase') return { type, phrases: [], said: true };
  if (type === 'similar_to') return { type, text: '', speaker: 'customer' };
  if (type === 'talk') return { type, metric: 'silence_seconds', op: 'above', value: 30 };
  // As negative as the recordings' "Negative" filter: a new condition and the filter find the same calls.
  return { type, speaker: 'customer', part: 'mean', op: 'below', value: NEGATIVE_SENTIMENT };
}

/** One condition in a sentence: `agent says "refund" in the first 15 s`. */
export function describeCondition(condition: Condition): string {
  const who = condition.speaker ?? (condition.type === 'phrase' || condition.type === 'similar_to' ? 'anyone' : 'the call');
  if (condition.type === 'phrase') {
    const phrases = condition.phrases.map((p) => `“${p}”`).join(' or ');
    const window = condition.within_seconds !== undefined ? ` in the first ${condition.within_seconds} s` : '';
    return `${who} ${condition.said === false ? 'never says' : 'says'} ${phrases || '(no phrase yet)'}${window}`;
  }
  if (condition.type === 'similar_to') {
    const window = condition.within_seconds !== undefined ? ` in the first ${condition.within_seconds} s` : '';
    const threshold = condition.threshold !== undefined && condition.threshold !== SIMILAR_THRESHOLD ? ` (similarity ${condition.threshold})` : '';
    return `${who} says something like “${condition.text || '…'}”${window}${threshold}`;
  }
  if (condition.type === 'talk') return `${who}: ${talkMetricNames[condition.metric]} ${condition.op} ${condition.value}`;
  // A true minus, as scores are written elsewhere ("−0.05", not "-0.05").
  return `${who}: sentiment ${partNames[condition.part ?? 'mean']} ${condition.op} ${String(condition.value).replace(/^-/, '−')}`;
}

/** A rule in a sentence: conditions joined by "and" (all) or "or" (any). */
export const describeRule = (rule: CategoryRule): string => rule.conditions.map(describeCondition).join(rule.match === 'all' ? ' and ' : ' or ');
