import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyCorrections, bareWord, CorrectionError } from '../src/features/transcription/corrections.ts';

const agent = { channel: 0, speaker: 'agent' };
const customer = { channel: 1, speaker: 'customer' };
const w = (word: string, start: number, end: number, who = agent) => ({ word, punctuated_word: word, start, end, confidence: 0.8, ...who });
const call = {
  segments: [
    { start: 0, end: 2, text: 'thank you for calling acne', ...agent },
    { start: 2.5, end: 4, text: 'my parcel is late', ...customer },
  ],
  words: [w('thank', 0, 0.3), w('you', 0.3, 0.5), w('for', 0.5, 0.7), w('calling', 0.7, 1.2), w('acne', 1.2, 1.9), w('my', 2.5, 2.7, customer), w('parcel', 2.7, 3.1, customer), w('is', 3.1, 3.3, customer), w('late', 3.3, 3.9, customer)],
};

test('a corrected word keeps its times; its segment and the text read it', () => {
  const fixed = applyCorrections(call, { words: [{ index: 4, word: 'Acme.' }] });
  assert.deepEqual(fixed.words[4], { ...call.words[4], word: 'Acme', punctuated_word: 'Acme.', confidence: 1 });
  assert.equal(fixed.segments[0]!.text, 'thank you for calling Acme.');
  assert.equal(fixed.text, 'agent: thank you for calling Acme.\ncustomer: my parcel is late');
});

test('a segment rewritten with as many words keeps each time; with more, they share the span by length', () => {
  const same = applyCorrections(call, { segments: [{ index: 1, text: 'My parcel is lost.' }] });
  assert.deepEqual(
    same.words.slice(5).map((x) => [x.word, x.punctuated_word, x.start, x.end, x.confidence]),
    [
      // A word kept (in any case) stays as recognised, with the recogniser's confidence; a new one is sure.
      ['my', 'My', 2.5, 2.7, 0.8],
      ['parcel', 'parcel', 2.7, 3.1, 0.8],
      ['is', 'is', 3.1, 3.3, 0.8],
      ['lost', 'lost.', 3.3, 3.9, 1],
    ],
  );
  assert.equal(same.retimed, false);
  const more = applyCorrections(call, { segments: [{ index: 1, text: 'my parcel is two days late' }] });
  const theirs = more.words.filter((x) => x.speaker === 'customer');
  assert.deepEqual(theirs.map((x) => x.word), ['my', 'parcel', 'is', 'two', 'days', 'late']);
  assert.equal(theirs[0]!.start, 2.5);
  assert.equal(theirs.at(-1)!.end, 3.9);
  for (let i = 1; i < theirs.length; i++) assert.equal(theirs[i]!.start, theirs[i - 1]!.end, 'one after the other');
  assert.equal(more.words.length, 11);
  assert.deepEqual(more.words.slice(0, 5), call.words.slice(0, 5), "the other speaker's words are untouched");
});

test('a segment rewritten with fewer or other words keeps the words it still has as they were heard', () => {
  // From a trial: "Hi my egg" corrected to "Hi Mike" made every word of the passage sure, and its misheard words topics.
  const heard = {
    segments: [{ start: 0, end: 3, text: 'Hi, my egg. Tyler fella mountain.', ...agent }],
    words: [w('hi', 0, 0.3), w('my', 0.3, 0.5), w('egg', 0.5, 0.9), { ...w('tyler', 1, 1.4), confidence: 0.1 }, { ...w('fella', 1.4, 1.8), confidence: 0.05 }, { ...w('mountain', 1.8, 2.5), confidence: 0.12 }].map((x, i) => ({ ...x, punctuated_word: ['Hi,', 'my', 'egg.', 'Tyler', 'fella', 'mountain.'][i] })),
  };
  const fixed = applyCorrections(heard, { segments: [{ index: 0, text: 'Hi, Mike. Tyler fella mountain.' }] });
  assert.deepEqual(
    fixed.words.map((x) => [x.word, x.punctuated_word, x.start, x.end, x.confidence]),
    [
      ['hi', 'Hi,', 0, 0.3, 0.8],
      ['Mike', 'Mike.', 0.3, 0.9, 1],
      ['tyler', 'Tyler', 1, 1.4, 0.1],
      ['fella', 'fella', 1.4, 1.8, 0.05],
      ['mountain', 'mountain.', 1.8, 2.5, 0.12],
    ],
  );
  assert.equal(fixed.retimed, true, 'a word fewer: talk counted again');
  // A number the transcript wrote ("$25") is one token for its words: kept whole.
  const money = { segments: [{ start: 0, end: 2, text: 'It is $25.', ...agent }], words: [w('it', 0, 0.2), w('is', 0.2, 0.4), { ...w('twenty', 0.4, 0.8), punctuated_word: '$25.' }, { ...w('five', 0.8, 1.2), punctuated_word: '' }] };
  const priced = applyCorrections(money, { segments: [{ index: 0, text: 'That is $25.' }] });
  assert.deepEqual(priced.words.map((x) => [x.word, x.punctuated_word, x.confidence]), [['That', 'That', 1], ['is', 'is', 0.8], ['twenty', '$25.', 0.8], ['five', '', 0.8]]);
  assert.equal(priced.retimed, false);
  // A word added after a number that ends the segment starts inside the segment, not at its end.
  const tight = { ...money, segments: [{ ...money.segments[0]!, end: 1.2 }] };
  const today = applyCorrections(tight, { segments: [{ index: 0, text: 'It is $25. Today' }] }).words.at(-1)!;
  assert.equal(today.word, 'Today');
  assert.ok(today.start < 1.2 && today.end <= 1.2, JSON.stringify(today));
});

test("an engine's own punctuation stays when a word is corrected; the rest of a written number cannot be", () => {
  const raw = { segments: [{ start: 0, end: 2, text: 'Thank you for calling, Acne!', ...agent }], words: call.words.slice(0, 5).map(({ punctuated_word: _, ...w }) => w) };
  const fixed = applyCorrections(raw, { words: [{ index: 4, word: 'Acme' }] });
  assert.equal(fixed.segments[0]!.text, 'Thank you for calling, Acme!');
  assert.equal(fixed.retimed, false);
  const money = { segments: [{ start: 0, end: 2, text: 'It is $25.', ...agent }], words: [w('it', 0, 0.2), w('is', 0.2, 0.4), { ...w('twenty', 0.4, 0.8), punctuated_word: '$25.' }, { ...w('five', 0.8, 1.2), punctuated_word: '' }] };
  assert.throws(() => applyCorrections(money, { words: [{ index: 3, word: 'six' }] }), (error: unknown) => error instanceof CorrectionError && error.path === 'words/0/index');
  assert.equal(applyCorrections(call, { segments: [{ index: 1, text: 'my parcel is two days late' }] }).retimed, true);
});

test('a transcript without word times takes segment text only', () => {
  const fixed = applyCorrections({ segments: call.segments, words: [] }, { segments: [{ index: 0, text: 'Thank you for calling Acme.' }] });
  assert.deepEqual(fixed.words, []);
  assert.equal(fixed.segments[0]!.text, 'Thank you for calling Acme.');
});

test('corrections that cannot apply name their field', () => {
  const refused = (corrections: Parameters<typeof applyCorrections>[1], path: string) =>
    assert.throws(() => applyCorrections(call, corrections), (error: unknown) => error instanceof CorrectionError && error.path === path);
  refused({}, '');
  refused({ words: [{ index: 9, word: 'x' }] }, 'words/0/index');
  refused({ words: [{ index: 0, word: 'two words' }] }, 'words/0/word');
  refused({ segments: [{ index: 2, text: 'x' }] }, 'segments/0/index');
  refused({ segments: [{ index: 0, text: '  ' }] }, 'segments/0/text');
  refused({ words: [{ index: 0, word: 'Thank' }], segments: [{ index: 0, text: 'Thanks' }] }, 'segments/0');
  // The second correction of the same word or segment, by its JSON pointer as every other error.
  refused({ words: [{ index: 0, word: 'a' }, { index: 0, word: 'b' }] }, 'words/1/index');
  refused({ segments: [{ index: 1, text: 'a' }, { index: 1, text: 'b' }] }, 'segments/1/index');
});

test('the bare word drops surrounding punctuation but keeps redaction tags', () => {
  assert.deepEqual(['Acme.', '"hello,"', "don't", '[CREDIT_CARD]', '?'].map(bareWord), ['Acme', 'hello', "don't", '[CREDIT_CARD]', '?']);
});
