import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answerSchema,
  buildMessages,
  coerceModelAnswers,
  formatSegment,
  formatTime,
  maxAnswerChars,
  mergeAnswers,
  MERGED_SUMMARY_MAX_CHARS,
  parseModelJson,
  renderTranscript,
  splitInput,
  splitQuestions,
  splitText,
  splitTranscript,
  SUMMARY_MAX_CHARS,
  TEXT_ANSWER_MAX_CHARS,
  toAnalysisAnswers,
  MODEL_ANSWER_CONFIDENCE,
  validateInput,
  type ModelAnswers,
} from '../src/engines/analysis/prompt.ts';
import { EngineError, type AnalysisInput, type TranscriptSegment } from '../src/engines/analysis/types.ts';
import { UNCERTAIN_BELOW } from '../src/core/analyses/analysis-result.ts';

const segments: TranscriptSegment[] = [
  { start: 12.3, end: 15, text: 'Hello, I would like to cancel my subscription.' },
  { start: 15, end: 18.44, text: '  Sure,\ncan I have   your account number? ' },
  { start: 18.5, end: 19, text: '   ' },
];

function input(overrides: Partial<AnalysisInput> = {}): AnalysisInput {
  return {
    transcript: { text: segments.map((s) => s.text).join(' '), segments },
    instructions: 'This is a support call. Be strict.',
    questions: [
      { id: 'cancel', text: 'Did the customer ask to cancel?', type: 'boolean' },
      { id: 'account', text: 'What did the agent ask for?', type: 'text' },
    ],
    summary: true,
    ...overrides,
  };
}

function manySegments(n: number): TranscriptSegment[] {
  return Array.from({ length: n }, (_, i) => ({ start: i * 2, end: i * 2 + 2, text: `Sentence number ${i} says something about the bill.` }));
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

describe('formatTime', () => {
  it('formats minutes, seconds and tenths', () => {
    assert.equal(formatTime(0), '00:00.0');
    assert.equal(formatTime(12.34), '00:12.3');
    assert.equal(formatTime(15), '00:15.0');
    assert.equal(formatTime(75.26), '01:15.3');
    assert.equal(formatTime(59.96), '01:00.0');
  });
  it('adds hours from one hour on', () => {
    assert.equal(formatTime(3723), '1:02:03.0');
  });
  it('treats negative and non-finite times as zero', () => {
    assert.equal(formatTime(-3), '00:00.0');
    assert.equal(formatTime(Number.NaN), '00:00.0');
  });
});

describe('buildMessages', () => {
  it("shows a boolean question's examples as what counts as yes", () => {
    const { system } = buildMessages(input({ questions: [{ id: 'refund', text: 'Was a refund offered?', type: 'boolean', examples: ['I can refund that', 'money back  today'] }] }));
    assert.match(system, /- "refund" \(boolean\): Was a refund offered\? \(true when the call says something like: "I can refund that"; "money back today"\)/);
  });
  it('renders timed, speaker-free lines, the instructions and the questions', () => {
    const withSpeaker = { ...segments[0]!, speaker: 'SPEAKER_00' } as TranscriptSegment;
    const { system, user } = buildMessages(input({ transcript: { text: '', segments: [withSpeaker, ...segments.slice(1)] } }));
    assert.match(user, /\[00:12\.3–00:15\.0\] Hello, I would like to cancel my subscription\./);
    assert.match(user, /\[00:15\.0–00:18\.4\] Sure, can I have your account number\?/);
    assert.doesNotMatch(user, /SPEAKER/);
    assert.doesNotMatch(user, /00:18\.5/, 'empty segments are left out');
    assert.match(system, /This is a support call\. Be strict\./);
    assert.match(system, /- "cancel" \(boolean\): Did the customer ask to cancel\?/);
    assert.match(system, /- "account" \(text\): What did the agent ask for\?/);
    assert.match(system, /JSON/);
    assert.match(system, new RegExp(`${SUMMARY_MAX_CHARS} characters`));
    assert.doesNotMatch(system, /part \d of/);
  });
  it('describes the JSON shape, with the summary only when asked', () => {
    const { system } = buildMessages(input({ summary: false }));
    assert.match(system, /\{"answers": \{"cancel": true or false, "account": "<text, at most 400 characters>"\}\}/);
    assert.doesNotMatch(system, /"summary"/);
  });
  it('names the part of a split transcript', () => {
    const { system, user } = buildMessages(input(), { chunk: { index: 1, total: 3 } });
    assert.match(system, /part 2 of 3/);
    assert.match(user, /^Transcript, part 2 of 3/);
    assert.doesNotMatch(buildMessages(input(), { chunk: { index: 0, total: 1 } }).system, /part 1 of 1/);
  });
  it('uses the bare text when there are no segments', () => {
    const { user } = buildMessages(input({ transcript: { text: ' plain words here ', segments: [] } }));
    assert.match(user, /<transcript>\nplain words here\n<\/transcript>/);
    assert.doesNotMatch(user, /\[\d/);
  });
  it('says when there are no questions', () => {
    assert.match(buildMessages(input({ questions: [] })).system, /"answers" is \{\}/);
  });
});

describe('answerSchema', () => {
  it('maps boolean and text questions and bounds every string', () => {
    assert.deepEqual(answerSchema(input()), {
      type: 'object',
      properties: {
        summary: { type: 'string', maxLength: SUMMARY_MAX_CHARS },
        answers: {
          type: 'object',
          properties: { cancel: { type: 'boolean' }, account: { type: 'string', maxLength: TEXT_ANSWER_MAX_CHARS } },
          required: ['cancel', 'account'],
          additionalProperties: false,
        },
      },
      required: ['summary', 'answers'],
      additionalProperties: false,
    });
  });
  it('leaves the summary out when not asked', () => {
    const schema = answerSchema(input({ summary: false }));
    assert.deepEqual(Object.keys(schema.properties), ['answers']);
    assert.deepEqual(schema.required, ['answers']);
  });
  it('bounds maxAnswerChars by the schema', () => {
    assert.ok(maxAnswerChars(input()) >= SUMMARY_MAX_CHARS + TEXT_ANSWER_MAX_CHARS);
    assert.ok(maxAnswerChars(input({ summary: false, questions: [] })) < 100);
  });
});

describe('splitTranscript', () => {
  it('packs whole segments into parts within the budget, in order, nothing lost', () => {
    const all = manySegments(50);
    const parts = splitTranscript(all, 400);
    assert.ok(parts.length > 1);
    for (const part of parts) assert.ok(part.map((s) => formatSegment(s).length + 1).reduce((a, b) => a + b, 0) <= 400);
    assert.deepEqual(parts.flat(), all);
  });
  it('splits a single over-long segment at word boundaries with times inside it', () => {
    const long = { start: 10, end: 70, text: Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ') };
    const parts = splitTranscript([segments[0]!, long], 200);
    const pieces = parts.flat();
    assert.deepEqual(words(pieces.map((s) => s.text).join(' ')), [...words(segments[0]!.text), ...words(long.text)]);
    for (const part of parts) assert.ok(part.map((s) => formatSegment(s).length + 1).reduce((a, b) => a + b, 0) <= 200);
    const longPieces = pieces.slice(1);
    assert.equal(longPieces[0]!.start, 10);
    assert.equal(longPieces.at(-1)!.end, 70);
    for (let i = 1; i < longPieces.length; i++) assert.ok(longPieces[i]!.start >= longPieces[i - 1]!.start);
  });
  it('drops empty segments and refuses tiny budgets', () => {
    assert.deepEqual(splitTranscript(segments, 1000), [segments.slice(0, 2)]);
    assert.throws(() => splitTranscript(segments, 10), RangeError);
  });
});

describe('splitText and splitInput', () => {
  it('splits bare text at word boundaries', () => {
    const text = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const pieces = splitText(text, 100);
    assert.ok(pieces.every((p) => p.length <= 100));
    assert.deepEqual(words(pieces.join(' ')), words(text));
  });
  it('keeps a transcript that fits whole and splits one that does not', () => {
    const small = input();
    assert.deepEqual(splitInput(small, 10_000), [small]);
    const big = input({ transcript: { text: 'x', segments: manySegments(200) } });
    const parts = splitInput(big, 1000);
    assert.ok(parts.length > 5);
    for (const part of parts) {
      assert.ok(renderTranscript(part.transcript).length <= 1000);
      assert.equal(part.questions, big.questions);
    }
    assert.deepEqual(parts.flatMap((p) => p.transcript.segments), big.transcript.segments);
  });
  it('splits a transcript with no segments by its text', () => {
    const big = input({ transcript: { text: 'lorem ipsum '.repeat(500), segments: [] } });
    const parts = splitInput(big, 500);
    assert.ok(parts.length > 5);
    assert.ok(parts.every((p) => p.transcript.segments.length === 0 && p.transcript.text.length <= 500));
  });
});

describe('splitQuestions', () => {
  it('groups questions whose answers fit, the summary in the first group only', () => {
    const questions = Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, text: `Question ${i}?`, type: 'text' as const }));
    const groups = splitQuestions(input({ questions }), 1500);
    assert.ok(groups.length > 1);
    assert.deepEqual(groups.flatMap((g) => g.questions), questions);
    assert.deepEqual(groups.map((g) => g.summary), [true, ...groups.slice(1).map(() => false)]);
    assert.ok(groups.every((g) => maxAnswerChars(g) <= 1500 || g.questions.length === 1));
    assert.equal(splitQuestions(input(), 100_000).length, 1);
  });
});

describe('mergeAnswers', () => {
  const base = input();
  it('is true when any part says true, and joins distinct text answers', () => {
    const partials: ModelAnswers[] = [
      { summary: 'First part.', answers: { cancel: false, account: '' } },
      { summary: 'Second part.', answers: { cancel: true, account: 'the account number' } },
      { summary: '', answers: { cancel: false, account: 'the account number' } },
      { summary: 'Third.', answers: { cancel: false, account: 'a date of birth' } },
    ];
    assert.deepEqual(mergeAnswers(partials, base), {
      summary: 'First part. Second part. Third.',
      answers: { cancel: true, account: 'the account number\na date of birth' },
    });
  });
  it('is false when every part says false, "" when no part answers the text, null when none answered', () => {
    assert.deepEqual(mergeAnswers([{ summary: '', answers: { cancel: false, account: '' } }, { summary: '', answers: { cancel: false, account: '  ' } }], base).answers, { cancel: false, account: '' });
    assert.deepEqual(mergeAnswers([{ summary: '', answers: { cancel: null, account: null } }], base).answers, { cancel: null, account: null });
  });
  it('skips parts that do not carry a question (another question group)', () => {
    const merged = mergeAnswers([{ summary: 'S', answers: { cancel: true } }, { summary: null, answers: { account: 'x' } }], base);
    assert.deepEqual(merged, { summary: 'S', answers: { cancel: true, account: 'x' } });
  });
  it('caps the joined summary and gives null when no summary was asked', () => {
    const long = Array.from({ length: 10 }, () => ({ summary: 'word '.repeat(100), answers: {} }));
    const merged = mergeAnswers(long, base);
    assert.ok(merged.summary !== null && merged.summary.length <= MERGED_SUMMARY_MAX_CHARS && merged.summary.endsWith('…'));
    assert.equal(mergeAnswers(long, input({ summary: false })).summary, null);
  });
});

describe('coerceModelAnswers and parseModelJson', () => {
  it('coerces loosely typed answers', () => {
    const questions = [
      { id: 'a', text: 'A?', type: 'boolean' as const },
      { id: 'b', text: 'B?', type: 'boolean' as const },
      { id: 'c', text: 'C?', type: 'text' as const },
      { id: 'd', text: 'D?', type: 'text' as const },
      { id: 'e', text: 'E?', type: 'boolean' as const },
    ];
    const raw = { summary: 42, answers: { a: 'Yes', b: 0, c: 12, d: ` ${'x'.repeat(500)} `, e: { nested: true }, extra: 'ignored' } };
    const out = coerceModelAnswers(raw, input({ questions }));
    assert.equal(out.summary, '42');
    assert.equal(out.answers['a'], true);
    assert.equal(out.answers['b'], false);
    assert.equal(out.answers['c'], '12');
    assert.ok(typeof out.answers['d'] === 'string' && out.answers['d'].length <= TEXT_ANSWER_MAX_CHARS);
    assert.equal(out.answers['e'], null);
    assert.equal(Object.hasOwn(out.answers, 'extra'), false);
  });
  it('marks missing answers null and rejects replies of the wrong shape', () => {
    assert.deepEqual(coerceModelAnswers({ answers: {} }, input({ summary: false })).answers, { cancel: null, account: null });
    // null is no answer, for a text question as for a boolean one: both come back uncertain.
    assert.deepEqual(coerceModelAnswers({ answers: { cancel: null, account: null } }, input({ summary: false })).answers, { cancel: null, account: null });
    for (const bad of [null, [], 'text', { summary: 'x' }]) {
      assert.throws(() => coerceModelAnswers(bad, input()), (e: unknown) => e instanceof EngineError && e.code === 'engine_bad_response' && e.retryable);
    }
  });
  it('parses JSON, tolerating a code fence, and rejects anything else', () => {
    assert.deepEqual(parseModelJson('```json\n{"a":1}\n```'), { a: 1 });
    assert.deepEqual(parseModelJson(' {"a":true} '), { a: true });
    assert.throws(() => parseModelJson('{"a": "unterminated'), (e: unknown) => e instanceof EngineError && e.code === 'engine_bad_response' && e.retryable);
  });
});

describe('toAnalysisAnswers and validateInput', () => {
  it('fills unanswered questions with a default and zero confidence; an answer given is not uncertain', () => {
    const answers = toAnalysisAnswers({ summary: null, answers: { cancel: null, account: 'x' } }, input());
    assert.deepEqual(answers, [
      { question_id: 'cancel', question: 'Did the customer ask to cancel?', type: 'boolean', answer: false, confidence: 0, evidence: [] },
      { question_id: 'account', question: 'What did the agent ask for?', type: 'text', answer: 'x', confidence: MODEL_ANSWER_CONFIDENCE, evidence: [] },
    ]);
    assert.ok(MODEL_ANSWER_CONFIDENCE >= UNCERTAIN_BELOW, 'a model\'s answer is not counted uncertain in reports');
  });
  it('rejects duplicate and empty question ids', () => {
    const q = { id: 'x', text: 'X?', type: 'boolean' as const };
    assert.throws(() => validateInput(input({ questions: [q, q] })), (e: unknown) => e instanceof EngineError && e.code === 'invalid_input' && !e.retryable);
    assert.throws(() => validateInput(input({ questions: [{ ...q, id: ' ' }] })), EngineError);
    assert.doesNotThrow(() => validateInput(input()));
  });
});
