// Pure logic: personal data found in what recognisers write (digits and spoken numbers), and
// replaced in text, segments and words with times kept; and what must be left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { luhnValid, type PiiKind } from '../src/features/transcription/pii.ts';
import { redactStrings, redactTranscript } from '../src/features/transcription/redaction.ts';

const all: PiiKind[] = ['credit_card', 'phone_number', 'email', 'us_ssn', 'number_sequence'];
const noSequences: PiiKind[] = ['credit_card', 'phone_number', 'email', 'us_ssn'];
const redact = (text: string, kinds: PiiKind[] = noSequences) => redactStrings([text], kinds).pieces[0];

test('Luhn', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('5500005555555559'), true);
  assert.equal(luhnValid('4111111111111112'), false);
});

const cases: [string, string, PiiKind[]?][] = [
  // Cards: written, grouped, spoken digit by digit (as pocketsphinx writes them), with "double".
  ['my card is 4111 1111 1111 1111 thanks', 'my card is [CREDIT_CARD] thanks'],
  ['card 4111-1111-1111-1111.', 'card [CREDIT_CARD].'],
  [
    'the number is four one one one one one one one one one one one one one one one and the expiry',
    'the number is [CREDIT_CARD] and the expiry',
  ],
  ['five five double zero zero zero five five five five five five five five five nine', '[CREDIT_CARD]'],
  // A 16-digit number failing Luhn is no card (and no phone): left alone without number_sequence.
  ['reference 4111 1111 1111 1112 please', 'reference 4111 1111 1111 1112 please'],
  ['reference 4111 1111 1111 1112 please', 'reference [NUMBER_SEQUENCE] please', all],
  // Phones: written, with punctuation, spoken, with a leading 1, international.
  ['call me on (555) 123-4567 tomorrow', 'call me on [PHONE_NUMBER] tomorrow'],
  ['my number is five five five one two three four five six seven', 'my number is [PHONE_NUMBER]'],
  ['dial 1-800-555-0199 now', 'dial [PHONE_NUMBER] now'],
  ['reach me at +44 20 7946 0958', 'reach me at [PHONE_NUMBER]'],
  ['the extension is 555-1234', 'the extension is [PHONE_NUMBER]'],
  ['it is eight hundred five five five one two one two', 'it is [PHONE_NUMBER]'],
  // SSNs: the written format, or nine digits after "social security".
  ['ssn 123-45-6789 on file', 'ssn [US_SSN] on file'],
  ['my social security number is one two three four five six seven eight nine', 'my social security number is [US_SSN]'],
  ['nine digits one two three four five six seven eight nine', 'nine digits one two three four five six seven eight nine'],
  ['invalid 000-12-3456 stays', 'invalid 000-12-3456 stays'],
  // E-mail addresses, written and spoken.
  ['write to jane.doe@example.com today', 'write to [EMAIL] today'],
  ['it is john dot smith at example dot com okay', 'it is [EMAIL] okay'],
  ['my email is jsmith at gmail dot com', 'my email is [EMAIL]'],
  ['write to john at example.com please', 'write to [EMAIL] please'],
  ['it is john.smith at gmail dot com', 'it is [EMAIL]'],
  // A hesitation inside a number does not split it.
  ['card 4111 1111 um 1111 1111 ok', 'card [CREDIT_CARD] ok'],
  // Must not be redacted: ordinary numbers and words.
  ['I have one question about two or three things', 'I have one question about two or three things', all],
  ['we met at the office at nine', 'we met at the office at nine', all],
  ['it costs forty nine ninety nine a month', 'it costs forty nine ninety nine a month'],
  ['in 2023 we had 12 stores and 300 staff', 'in 2023 we had 12 stores and 300 staff'],
  ['look at that dot on the map', 'look at that dot on the map', all],
  ['oh I see, one moment', 'oh I see, one moment', all],
  // Number sequences: four digits or more, only when asked.
  ['my pin is four three two one', 'my pin is [NUMBER_SEQUENCE]', all],
  ['my pin is four three two one', 'my pin is four three two one'],
  ['account 987654 closed', 'account [NUMBER_SEQUENCE] closed', all],
  // Homophones in a row before a number are its digits ("four four seventy nine" heard so).
  ['my order number is for for seventy nine', 'my order number is [NUMBER_SEQUENCE]', all],
  // A number said in one breath goes whole: a phone number's ten digits in a run of eleven leave none in clear.
  ['call five five five two four seven eight one three nine nine', 'call [PHONE_NUMBER]'],
  ['call five five five two four seven eight one three nine nine', 'call [PHONE_NUMBER]', all],
];

for (const [input, expected, kinds] of cases) {
  test(`redacts: ${input}${kinds ? ' (with number sequences)' : ''}`, () => {
    assert.equal(redact(input, kinds), expected);
  });
}

test('only the kinds asked for', () => {
  assert.equal(redact('card 4111 1111 1111 1111 phone 555 123 4567', ['phone_number']), 'card 4111 1111 1111 1111 phone [PHONE_NUMBER]');
  assert.equal(redact('card 4111 1111 1111 1111', []), 'card 4111 1111 1111 1111');
});

test('a number read across two segments is found whole; the first keeps the marker', () => {
  const { pieces } = redactStrings(['my card is four one one one one one one one', 'one one one one one one one one thanks'], ['credit_card']);
  assert.deepEqual(pieces, ['my card is [CREDIT_CARD]', 'thanks']);
});

test('a transcript: words merged into one marker with their times, segments and text redacted, spans returned', () => {
  const spoken = 'my number is five five five one two three four five six seven bye'.split(' ');
  const words = spoken.map((word, i) => ({ word, start: i, end: i + 0.8, confidence: 0.9, channel: 1, speaker: 'customer' }));
  const agent = { word: 'hello', start: 0, end: 0.5, confidence: 1, channel: 0, speaker: 'agent' };
  const transcript = {
    language: 'en',
    text: 'ignored: rebuilt from turns',
    segments: [
      { start: 0, end: 0.5, text: 'hello', channel: 0, speaker: 'agent' },
      { start: 0, end: 6.8, text: spoken.slice(0, 7).join(' '), channel: 1, speaker: 'customer' },
      { start: 7, end: 13.8, text: spoken.slice(7).join(' '), channel: 1, speaker: 'customer' },
    ],
    words: [agent, ...words].sort((a, b) => a.start - b.start || a.channel - b.channel),
  };
  const { transcript: out, spans } = redactTranscript(transcript, ['phone_number'], true);
  assert.deepEqual(spans, [{ start: 3, end: 12.8, channel: 1, kind: 'phone_number' }]);
  const marker = out.words.find((w) => w.word === '[PHONE_NUMBER]');
  assert.deepEqual(marker && { start: marker.start, end: marker.end, speaker: marker.speaker }, { start: 3, end: 12.8, speaker: 'customer' });
  assert.equal(out.words.length, 1 + 3 + 1 + 1);
  assert.deepEqual(
    out.segments.map((s) => s.text),
    ['hello', 'my number is [PHONE_NUMBER]', 'bye'],
  );
  assert.equal(out.text, 'agent: hello\ncustomer: my number is [PHONE_NUMBER] bye');
  assert.ok(!JSON.stringify(out).match(/five|seven/));
});

test('a digit heard as a word ("for", "to") counts next to other digits only', () => {
  assert.equal(redact('my card numbers for one one one one one one one one one one one one one one one thanks'), 'my card numbers [CREDIT_CARD] thanks');
  assert.equal(redact('thank you for calling, I went to the bank', ['number_sequence']), 'thank you for calling, I went to the bank');
  assert.equal(redact('for one thing', ['number_sequence']), 'for one thing');
});

test('a formatted number that ended a sentence: the marker keeps its full stop, so the sentences stay apart', () => {
  const said = [['my', 'My'], ['card', 'card'], ['is', 'is'], ['4111', '4111'], ['1111', '1111'], ['1111', '1111'], ['1111', '1111.'], ['this', 'This'], ['is', 'is'], ['awful', 'awful.']];
  const words = said.map(([word, written], i) => ({ word: word!, punctuated_word: written!, start: i, end: i + 0.8, confidence: 0.9, channel: 0, speaker: 'channel_0' }));
  const transcript = { language: 'en', text: '', segments: [{ start: 0, end: 9.8, text: 'My card is 4111 1111 1111 1111. This is awful.', channel: 0, speaker: 'channel_0' }], words };
  const { transcript: out } = redactTranscript(transcript, ['credit_card'], false);
  assert.deepEqual(out.words.map((w) => [w.word, (w as { punctuated_word?: string }).punctuated_word]).slice(3, 5), [['[CREDIT_CARD]', '[CREDIT_CARD].'], ['this', 'This']]);
});
