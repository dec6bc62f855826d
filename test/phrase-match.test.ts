// Pure logic: phrase rules over timed words (one slip per four words), and a question's part of a
// transcript (one speaker, the first N seconds).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchPhrase, matchPhrases, timedTokens } from '../src/core/transcripts/phrase-match.ts';
import { answerByPhrases, scopedTranscript } from '../src/core/transcripts/phrase-rules.ts';

const said = (text: string, from = 0, speaker = 'agent', channel = 0) =>
  text.split(' ').map((word, i) => ({ word, start: from + i * 0.5, end: from + i * 0.5 + 0.4, confidence: 0.9, speaker, channel }));

test('a phrase matches exactly, without case or punctuation, with its words and times', () => {
  const match = matchPhrase('This call is recorded.', timedTokens(said('hello this call is recorded for quality', 1)));
  assert.deepEqual(match, { phrase: 'This call is recorded.', text: 'this call is recorded', start: 1.5, end: 3.4, edits: 0, denied: false });
});

test('a phrase said after a denial answers yes (the words were said) but uncertain; one said plainly answers first', () => {
  const rule = (text: string) => answerByPhrases({ id: 'refund', text: 'Did the agent offer a refund?', phrases: ['refund', 'money back'] }, { text: '', segments: [{ start: 0, end: 20, text, channel: 0, speaker: 'agent' }], words: said(text) });
  for (const text of ["I'm sorry I can't offer you a refund", 'there is no refund on this plan', "we won't give your money back"]) {
    const denied = rule(text);
    assert.deepEqual([denied.answer, denied.confidence < 0.6], [true, true], text);
  }
  // Said plainly, later in the call, after a denial of another: the plain one is the evidence, sure.
  const plain = rule("I can't do that today but I will refund the full amount");
  assert.deepEqual([plain.answer, plain.confidence], [true, 1]);
  const twice = rule("I cannot refund it now sorry, actually yes I can refund it");
  assert.deepEqual([twice.confidence, twice.evidence[0]?.start], [1, 5], 'of two equal matches, the one said plainly');
  // "No" alone denies only the word after it: "no, I can refund it" is an offer.
  assert.equal(rule('no problem I can refund it').confidence, 1);
});

test('one slip per four words is tolerated, not more', () => {
  const tokens = timedTokens(said('hello this call his recorded for quality'));
  assert.equal(matchPhrase('this call is recorded', tokens)?.edits, 1);
  assert.equal(matchPhrase('this call is recorded', timedTokens(said('hello this fall his recorded'))), null);
  // Under four words, no slip: "charged twice" is not "charged lies".
  assert.equal(matchPhrase('charged twice', timedTokens(said('my card was charged lies'))), null);
  // A missing word is a slip too: one is tolerated in five words, not a second.
  assert.equal(matchPhrase('this call is being recorded', timedTokens(said('this call is recorded')))?.edits, 1);
  assert.equal(matchPhrase('this call is being recorded', tokens), null);
});

test('the best of several phrases first; none said is no match', () => {
  const tokens = timedTokens(said('thank you for calling acme how can I help'));
  assert.deepEqual(matchPhrases(['goodbye', 'thank you for calling'], tokens).map((m) => m.text), ['thank you for calling']);
  assert.deepEqual(matchPhrases(['goodbye'], tokens), []);
});

test('evidence: one place per stretch of talk (the best phrase found there), in the order said', () => {
  const words = [...said('this call may be recorded for quality', 0), ...said('you said this call may be recorded', 20)];
  const text = words.map((w) => w.word).join(' ');
  const answer = answerByPhrases({ id: 'notice', text: 'Recording notice?', phrases: ['recorded for quality', 'this call may be recorded', 'call may be recorded', 'you said'] }, { text, segments: [{ start: 0, end: 30, text, speaker: 'agent', channel: 0 }], words });
  assert.deepEqual(answer.evidence.map((e) => [e.text, e.start]), [['this call may be recorded', 0], ['you said', 20]], 'the phrases found inside the first place are not shown again');
});

test('a question sees only its speaker and its window', () => {
  const words = [...said('hello thank you for calling', 0), ...said('I was charged twice', 3, 'customer', 1), ...said('I can refund that', 12)];
  const segments = [
    { start: 0, end: 2.4, text: 'hello thank you for calling', channel: 0, speaker: 'agent' },
    { start: 3, end: 4.9, text: 'I was charged twice', channel: 1, speaker: 'customer' },
    { start: 12, end: 13.9, text: 'I can refund that', channel: 0, speaker: 'agent' },
  ];
  const parts = { text: '', segments, words };
  assert.equal(scopedTranscript(parts, { speaker: 'agent' }).text, 'hello thank you for calling\nI can refund that');
  assert.equal(scopedTranscript(parts, { within_seconds: 10 }).text, 'agent: hello thank you for calling\ncustomer: I was charged twice');
  assert.equal(scopedTranscript(parts, { speaker: 'agent', within_seconds: 1.2 }).segments[0]?.text, 'hello thank you');

  const ask = (phrases: string[], scope: { speaker?: string; within_seconds?: number }) =>
    answerByPhrases({ id: 'q', text: 'rule', phrases, ...scope }, parts);
  const greeted = ask(['thank you for calling'], { speaker: 'agent', within_seconds: 10 });
  assert.equal(greeted.answer, true);
  assert.deepEqual(greeted.evidence, [{ text: 'thank you for calling', start: 0.5, end: 2.4, source: 'transcript' }]);
  assert.equal(ask(['charged twice'], { speaker: 'agent' }).answer, false);
  assert.equal(ask(['charged twice'], { speaker: 'customer' }).answer, true);
  assert.equal(ask(['refund'], { within_seconds: 10 }).answer, false);
  assert.equal(ask(['refund'], {}).answer, true);
});

test('without words, a window keeps the share of a segment said by then; a speaker not heard is false and unsure', () => {
  const parts = { text: '', words: [], segments: [{ start: 0, end: 4, text: 'we can offer a refund today', channel: 0, speaker: 'agent' }] };
  assert.equal(scopedTranscript(parts, { within_seconds: 2 }).segments[0]?.text, 'we can offer');
  const rule = (scope: { speaker?: string; within_seconds?: number }) => answerByPhrases({ id: 'q', text: 'refund?', phrases: ['refund'], ...scope }, parts);
  assert.equal(rule({ within_seconds: 2 }).answer, false);
  assert.equal(rule({}).answer, true);
  assert.deepEqual([rule({ speaker: 'customer' }).answer, rule({ speaker: 'customer' }).confidence], [false, 0]);
});

test('a phrase written as the transcript shows it ("$25.50", "555-247-8139") is found in its shown words, said or shown', () => {
  const w = (word: string, start: number, shown: string) => ({ word, start, end: start + 0.4, confidence: 0.9, channel: 0, speaker: 'agent', punctuated_word: shown });
  const words = [
    w('that', 0, 'That'), w('is', 0.5, 'is'), w('twenty', 1, '$25.50'), w('five', 1.5, ''), w('dollars', 2, ''), w('and', 2.5, ''), w('fifty', 3, ''), w('cents', 3.5, 'cents.'),
    w('call', 5, 'Call'), w('five', 5.5, '555-247-8139.'), ...'five five two four seven eight one three nine'.split(' ').map((digit, k) => w(digit, 6 + k * 0.4, '')),
  ];
  const parts = { text: '', segments: [{ start: 0, end: 10, text: 'That is $25.50 cents. Call 555-247-8139.', channel: 0, speaker: 'agent' }], words };
  const ask = (phrases: string[]) => answerByPhrases({ id: 'q', text: 'rule', phrases }, parts);
  const price = ask(['$25.50']);
  assert.deepEqual([price.answer, price.evidence[0]?.start, price.evidence[0]?.end], [true, 1, 3.4], 'the words "twenty five dollars and fifty" say it');
  assert.equal(ask(['555-247-8139']).answer, true);
  assert.equal(ask(['twenty five dollars']).answer, true, 'as said, still');
  assert.equal(ask(['$99']).answer, false);
});

test('two people talking at once: each one\'s phrase is found in their own channel, not lost between the other\'s words', () => {
  // Word times interleave: the agent's and the customer's words alternate in time order.
  const agent = said('good morning thank you for calling acme', 0, 'channel_0', 0);
  const customer = said('hi I want to cancel my subscription', 0.25, 'channel_1', 1);
  const words = [...agent, ...customer].sort((a, b) => a.start - b.start);
  const segments = [
    { start: 0, end: 4, text: agent.map((w) => w.word).join(' '), speaker: 'channel_0', channel: 0 },
    { start: 0.25, end: 4, text: customer.map((w) => w.word).join(' '), speaker: 'channel_1', channel: 1 },
  ];
  const text = segments.map((s) => s.text).join('\n');
  const greeting = answerByPhrases({ id: 'greeting', text: 'Greeted?', phrases: ['thank you for calling'] }, { text, segments, words });
  assert.deepEqual([greeting.answer, greeting.evidence.map((e) => e.text)], [true, ['thank you for calling']]);
  const cancel = answerByPhrases({ id: 'cancel', text: 'Cancel?', phrases: ['cancel my subscription'] }, { text, segments, words });
  assert.equal(cancel.answer, true);
  // Nor is a phrase made of both people's words: "hi" (0.25 s) then "morning" (0.5 s) in time order.
  const mixed = answerByPhrases({ id: 'mixed', text: 'Mixed?', phrases: ['hi morning'] }, { text, segments, words });
  assert.equal(mixed.answer, false);
  // Without word times, each channel's segments: the agent's last words and the customer's first are no phrase.
  assert.equal(answerByPhrases({ id: 'greeting', text: 'Greeted?', phrases: ['thank you for calling'] }, { text, segments, words: [] }).answer, true);
  assert.equal(answerByPhrases({ id: 'across', text: 'Across?', phrases: ['calling acme hi'] }, { text, segments, words: [] }).answer, false);
});
