// Word lists shared by several stages; a list used by one stage lives with that stage.
// Deliberately generic: everyday English plus call-centre vocabulary, nothing from the dataset.
export const FUNCTION_POS = new Set(['DET', 'PRON', 'ADP', 'CCONJ', 'SCONJ', 'PART', 'AUX', 'PUNCT', 'SYM', 'SPACE']);

export const FILLERS = new Set([
  'uh', 'um', 'uhm', 'erm', 'er', 'ah', 'oh', 'hmm', 'mm', 'mhm', 'okay', 'ok', 'yes', 'yeah', 'yep', 'yup', 'no',
  'nope', 'nah', 'well', 'alright', 'right', 'sure',
]);

export const NEGATORS = new Set([
  'not', 'never', 'no', 'nobody', 'nothing', 'none', 'neither', 'nor', 'without', 'cannot', 'noone', 'nowhere',
]);

/**
 * Verbs (and "unable") that negate what follows them: "i declined the warranty", "the courier
 * refused to leave it", "it stopped working". "stop" only counts as a verb ("the bus stop").
 */
export const NEGATIVE_VERBS = new Set(['decline', 'refuse', 'reject', 'deny', 'fail', 'neglect', 'forget', 'stop', 'cease', 'unable', 'waive']);

export function isNegativeVerb(lemma: string, pos: string): boolean {
  return NEGATIVE_VERBS.has(lemma) && (lemma !== 'stop' || pos === 'VERB');
}

export const SUBJECT_PRONOUNS = new Set(['i', 'you', 'we', 'they', 'he', 'she']);

export const WH_WORDS = new Set(['what', 'where', 'when', 'why', 'how', 'which', 'who', 'whom', 'whose']);
/** Words that make a wh-phrase of their own ("how long", "how much"). */
export const WH_FOLLOWERS = new Set(['much', 'many', 'long', 'often', 'far', 'soon', 'old', 'big']);

/** Courtesy words: they carry no content for summaries and are never part of a name. */
export const POLITE = new Set([
  'thank', 'thanks', 'please', 'sorry', 'hello', 'hi', 'hey', 'bye', 'goodbye', 'welcome', 'great', 'good',
  'okay', 'ok', 'perfect', 'sure', 'alright', 'day', 'morning', 'afternoon', 'evening', 'nice', 'help', 'call',
  'calling', 'today', 'else',
]);
