// Pure logic: numbers said aloud written as digits, in each word's written form, and what must be
// left alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCardinal, writeNumbers } from '../src/features/transcription/numbers.ts';

/** The written text of recognised words (the written form as the words themselves, a full stop on the last). */
const written = (said: string, end = '.') => {
  const words = said.split(' ').map((word, i, all) => ({ word, punctuated_word: i === all.length - 1 ? `${word}${end}` : word }));
  return writeNumbers(words)
    .map((w) => w.punctuated_word)
    .filter(Boolean)
    .join(' ');
};

test('cardinals', () => {
  const cases: [string, number, number][] = [
    ['twenty five', 25, 2],
    ['one hundred and twelve', 112, 4],
    ['three thousand four hundred', 3400, 4],
    ['two million', 2_000_000, 2],
    ['nineteen', 19, 1],
    ['five five', 5, 1],
    ['twenty thirty', 20, 1],
  ];
  for (const [said, value, length] of cases) assert.deepEqual(readCardinal(said.split(' '), 0), { value, length }, said);
});

test('money, percentages, times, dates, digit strings and numbers', () => {
  const cases: [string, string][] = [
    ['it costs twenty five dollars', 'it costs $25.'],
    ['that is twelve dollars and fifty cents', 'that is $12.50.'],
    ['about ninety nine percent', 'about 99%.'],
    ['call me at two thirty p m', 'call me at 2:30 PM.'],
    ['the meeting is at ten a m', 'the meeting is at 10 AM.'],
    ['it starts at seven o\'clock', 'it starts at 7:00.'],
    ['my number is five five five one two three four', 'my number is 5551234.'],
    ['text us at five five five two four seven eight one three nine', 'text us at 555-247-8139.'],
    ['dial one eight zero zero five five five zero one nine nine', 'dial 1-800-555-0199.'],
    ['the card is four one one one one one one one one one one one one one one one', 'the card is 4111111111111111.'],
    ['service returns by four pm', 'service returns by 4 PM.'],
    ['we open nine am on weekdays', 'we open 9 AM on weekdays.'],
    ['the shop opens nine am', 'the shop opens 9 AM.'],
    ['my account is one two three four five six seven eight nine zero', 'my account is 1234567890.'],
    ['the code is four one one one one one one one one one', 'the code is 4111111111.'],
    ['order one hundred and twelve arrived', 'order 112 arrived.'],
    ['we shipped it on may fifth', 'we shipped it on May 5th.'],
    ['the june twenty first delivery', 'the June 21st delivery.'],
    ['there were fourteen boxes', 'there were 14 boxes.'],
    ['a hundred and fifty dollars', '$150.'],
    ['a thousand five hundred dollars', '$1500.'],
    ['about twenty point five percent', 'about 20.5%.'],
    ['born in nineteen eighty five', 'born in 1985.'],
    ['since twenty twenty four', 'since 2024.'],
    ['see you at two thirty', 'see you at 2:30.'],
    ['the report from may fifth', 'the report from May 5th.'],
    ['on the third of may', 'on the 3rd of May.'],
    ['by the twenty first of june please', 'by the 21st of June please.'],
    // A day without its month: of every month, or after "on" where a day's words follow.
    ['we take it on the fifteenth of every month', 'we take it on the 15th of every month.'],
    ['it is due on the fifteenth', 'it is due on the 15th.'],
    ['the payment goes out on the twenty first at noon', 'the payment goes out on the 21st at noon.'],
    // Pounds as a price: before its period, or with its pence.
    ['the plan costs thirty five pounds a month', 'the plan costs £35 a month.'],
    ['it came to ten pounds and fifty pence', 'it came to £10.50.'],
  ];
  for (const [said, expected] of cases) assert.equal(written(said), expected, said);
});

test('left alone: small numbers in words, ordinals without a month, words that only look like numbers', () => {
  for (const said of ['one of them is here', 'i have two kids', 'first of all thank you', 'the first of them', 'the second of many', 'it may be second hand', 'oh no', 'to be or not to be', 'i lost ten pounds', 'you may first want to check', 'which one am i talking to', 'two thirty', 'twenty five', 'she lives on the fifth floor', 'the third of them', 'click on the second and then the third']) {
    if (said === 'i lost ten pounds') {
      // A weight a week is no price either.
      assert.equal(written('i lost fifteen pounds a week on that diet'), 'i lost 15 pounds a week on that diet.');
      assert.equal(written(said), 'i lost 10 pounds.', said);
      continue;
    }
    if (said === 'twenty five') {
      assert.equal(written(said), '25.', said);
      continue;
    }
    assert.equal(written(said), `${said}.`, said);
  }
});

test('a number never runs across a comma or a full stop', () => {
  const words = ['one,', 'two,', 'three.'].map((w) => ({ word: w.replace(/[,.]/, ''), punctuated_word: w }));
  assert.deepEqual(writeNumbers(words).map((w) => w.punctuated_word), ['one,', 'two,', 'three.']);
});

test('the written form takes the last word\'s punctuation; the other words of a number write nothing', () => {
  const words = writeNumbers([
    { word: 'twenty', punctuated_word: 'Twenty' },
    { word: 'five', punctuated_word: 'five' },
    { word: 'dollars', punctuated_word: 'dollars?' },
  ]);
  assert.deepEqual(words.map((w) => [w.word, w.punctuated_word]), [
    ['twenty', '$25?'],
    ['five', ''],
    ['dollars', ''],
  ]);
});
