// Sentiment along a call: unit checks of the scorer and the per-speaker thirds, and over HTTP on
// recognised two-channel calls through the shipped TypeScript client (an angry customer scores
// negative, a pleased one positive).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scoreText, sentencesOf, transcriptSentiment } from '../src/core/transcripts/sentiment.ts';
import { sentimentOf } from '../src/core/transcripts/transcript.ts';
import { stereoCall } from './helpers/audio.ts';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

test('a lexicon score: negative, positive, neutral, and a negation turns it', () => {
  assert.ok(scoreText('this is terrible and your service is awful') < -0.3);
  assert.ok(scoreText('thank you so much that is really helpful') > 0.3);
  assert.equal(scoreText('my parcel number is one two three'), 0);
  assert.ok(scoreText('i am not happy with this') < 0);
});

test('a polite "no thanks" is no complaint, and an opening "okay" no praise', () => {
  assert.ok(scoreText('No thanks, bye.') >= 0, 'was -0.4');
  assert.ok(scoreText('no that is fine thank you') > 0.2, 'was -0.4');
  assert.ok(scoreText('No thank you, that is great.') > 0.2, 'was 0.1');
  assert.equal(scoreText('Okay, my account number is on the letter.'), 0, 'was 0.81');
  assert.equal(scoreText('Okay.'), 0, 'an acknowledgement alone: was 0.81');
  assert.equal(scoreText('alright'), 0);
  assert.ok(scoreText('Okay, great.') > 0.2, 'praise after it stays');
  assert.ok(scoreText('No, this is not acceptable.') < 0, 'a "no" that refuses stays');
  assert.ok(scoreText('Well, this is terrible.') < -0.3);
});

test('a demand is no pleasure: "right now" is a time, "want" a request, and a negative word denied no praise', () => {
  // From a trial's angry call, whose lanes showed these green.
  assert.ok(scoreText('I want to cancel my contract right now.') <= 0, 'was +0.18');
  assert.equal(scoreText('I cannot cancel it today.'), 0, 'was +0.2');
  assert.equal(scoreText('I want a refund.'), 0, 'was +0.2');
  assert.ok(scoreText('That is not good at all.') < 0, 'a positive word denied stays negative');
  assert.ok(scoreText('You are right, thank you.') > 0.2, '"right" as agreement stays');
  assert.ok(scoreText('I want to say thank you, that was great.') > 0.2);
});

test('"no problem" and "no worries" are courtesy, not trouble', () => {
  assert.equal(scoreText('No problem.'), 0, 'was -0.4');
  assert.equal(scoreText('No worries.'), 0, 'was -0.6');
  assert.equal(scoreText('Not a problem.'), 0);
  assert.ok(scoreText('No problem at all, happy to help.') > 0.2);
  assert.ok(scoreText('There is a problem with my bill.') < 0, 'a problem said is still one');
});

test('an apology is courtesy, not upset; what else the sentence says still counts', () => {
  assert.equal(scoreText('I am sorry about that.'), 0, 'was -0.5');
  assert.equal(scoreText("I'm so sorry to hear that."), 0, 'was -0.5');
  assert.equal(scoreText('I apologize for the trouble.'), 0, 'was -0.38');
  assert.equal(scoreText('Sorry, could you repeat that?'), 0, 'was -0.5');
  assert.ok(scoreText("I'm sorry but this is ridiculous.") < -0.3);
  assert.ok(scoreText('Sorry for the wait, thank you so much for your patience.') > 0.2);
  // Only one's own apology: a threat keeps its weight; an opening "okay" after an apology judges nothing.
  assert.ok(scoreText("You'll be sorry about this.") < -0.3);
  assert.equal(scoreText('Sorry, okay, let me check.'), 0);
  assert.ok(scoreText('That is great. Sorry about the wait.') > 0.2);
});

test('per speaker: the mean, and the first and last thirds of the call', () => {
  const segment = (speaker: string, start: number, text: string) => ({ start, end: start + 2, text, speaker, channel: speaker === 'agent' ? 0 : 1 });
  const sentiment = transcriptSentiment(
    [
      segment('customer', 0, 'this is terrible I am very angry'),
      segment('agent', 10, 'I am sorry I will fix it now'),
      segment('customer', 25, 'thank you that is great'),
    ],
    [],
    30,
  );
  assert.equal(sentiment.segments.length, 3);
  const customer = sentiment.speakers.find((s) => s.speaker === 'customer')!;
  assert.ok(customer.first_third! < 0 && customer.last_third! > 0, JSON.stringify(customer));
  assert.equal(customer.segments, 2);
  assert.equal(sentiment.speakers.find((s) => s.speaker === 'agent')!.first_third, null, 'the agent says nothing in the first third');
});

test('per sentence: a segment cut after each word that ends a sentence, timed by its words', () => {
  const segments = [
    { start: 0, end: 6, text: 'This is awful. I want my $25 back!', speaker: 'customer', channel: 1 },
    { start: 7, end: 9, text: 'Thank you.', speaker: 'agent', channel: 0 },
  ];
  const word = (start: number, said: string, written: string, channel = 1) => ({ start, end: start + 0.4, word: said, punctuated_word: written, channel });
  const words = [
    word(0, 'this', 'This'), word(0.5, 'is', 'is'), word(1, 'awful', 'awful.'),
    word(2, 'i', 'I'), word(2.5, 'want', 'want'), word(3, 'my', 'my'), word(3.5, 'twenty', '$25'), word(4, 'five', ''), word(4.5, 'dollars', ''), word(5, 'back', 'back!'),
    word(7, 'thank', 'Thank', 0), word(7.5, 'you', 'you.', 0),
  ];
  const sentences = sentencesOf(segments, words);
  assert.deepEqual(sentences.map((s) => [s.segment, s.start, s.end, s.speaker, s.text]), [
    [0, 0, 1.4, 'customer', 'This is awful.'],
    [0, 2, 5.4, 'customer', 'I want my $25 back!'],
    [1, 7, 7.9, 'agent', 'Thank you.'],
  ]);
  const scored = transcriptSentiment(segments, words, 10);
  assert.ok(scored.sentences[0]!.score < 0 && scored.sentences[2]!.score > 0, JSON.stringify(scored.sentences));
  // Without words (an engine that times none) the text is cut, each sentence timed by its share of the characters.
  const untimed = sentencesOf([{ start: 10, end: 20, text: 'Hello there. How are you?', speaker: 'agent', channel: 0 }], []);
  assert.deepEqual(untimed.map((s) => s.text), ['Hello there.', 'How are you?']);
  assert.equal(untimed[0]!.start, 10);
  assert.ok(untimed[1]!.start > 14 && untimed[1]!.end === 20, JSON.stringify(untimed));
  assert.deepEqual(sentencesOf([{ start: 0, end: 1, text: 'no stop here', speaker: 'a', channel: 0 }], []).map((s) => s.text), ['no stop here']);
});

test('per sentence: a number written into one word stays in its sentence; text cut only where a space follows the mark', () => {
  const word = (start: number, said: string, written: string) => ({ start, end: start + 0.4, word: said, punctuated_word: written, channel: 0 });
  const words = [word(0, 'it', 'It'), word(0.5, 'costs', 'costs'), word(1, 'twenty', '25.'), word(1.5, 'five', ''), word(2.5, 'thanks', 'Thanks.')];
  const segments = [{ start: 0, end: 3, text: 'It costs 25. Thanks.', speaker: 'agent', channel: 0 }];
  assert.deepEqual(sentencesOf(segments, words).map((s) => [s.text, s.start, s.end]), [['It costs 25.', 0, 1.9], ['Thanks.', 2.5, 2.9]]);
  const text = 'It is $3.50 a month. Dr. Smith will call.';
  assert.deepEqual(sentencesOf([{ start: 0, end: 4, text, speaker: 'agent', channel: 0 }], []).map((s) => s.text), ['It is $3.50 a month.', 'Dr.', 'Smith will call.']);
  // Words an engine punctuated itself (no written form): the text is cut, not the words.
  const own = [{ start: 0, end: 0.4, word: 'Hello.', channel: 0 }, { start: 0.5, end: 0.9, word: 'Bye.', channel: 0 }];
  assert.deepEqual(sentencesOf([{ start: 0, end: 1, text: 'Hello. Bye.', speaker: 'agent', channel: 0 }], own).map((s) => s.text), ['Hello.', 'Bye.']);
  // A segment that ends before it starts gives no sentence that does.
  for (const s of sentencesOf([{ start: 5, end: 3, text: 'One. Two.', speaker: 'agent', channel: 0 }], [])) assert.ok(s.end >= s.start, JSON.stringify(s));
});

test('sentiment stored before sentences were kept: the stored scores stay, the sentences are scored on reading', () => {
  const segments = [{ start: 0, end: 2, text: 'This is awful.', speaker: 'customer', channel: 1 }];
  const stored = { segments: [-0.9], speakers: [{ speaker: 'customer', mean: -0.9, first_third: -0.9, last_third: null, segments: 1 }] };
  const read = sentimentOf({ id: 'tr-1', sentiment: stored, duration_seconds: 2 }, { segments, words: [] });
  assert.deepEqual(read.segments, [-0.9], 'as stored');
  assert.equal(read.sentences.length, 1);
  assert.ok(read.sentences[0]!.score < 0);
});

describe('sentiment over HTTP', () => {
  let hark: Hark;
  let client: HarkClient;
  before(async () => {
    hark = await startHark({ backend: 'pglite' });
    client = hark.client((await registerAccount(hark)).key);
  });
  after(() => hark.destroy());

  const ids: Record<string, string> = {};
  const sentencesSaid: Record<string, number[]> = {};
  async function customerSentiment(customer: string): Promise<number> {
    const file = stereoCall(
      [
        { channel: 0, at: 0.3, text: 'Thank you for calling, how can I help?' },
        { channel: 1, at: 3.5, text: customer },
      ],
      10,
    );
    const transcript = await client.transcribe(file, { timeoutMs: 90_000 });
    ids[customer] = transcript.recording_id;
    assert.equal(transcript.sentiment.segments.length, transcript.segments.length);
    // Each sentence of the formatted text is scored too, inside its segment's time.
    const customerSentences = transcript.sentiment.sentences.filter((s) => s.speaker === 'channel_1');
    assert.ok(customerSentences.length >= 1, JSON.stringify(transcript.sentiment.sentences));
    for (const sentence of transcript.sentiment.sentences) {
      const segment = transcript.segments[sentence.segment]!;
      assert.ok(sentence.start >= segment.start - 0.01 && sentence.end <= segment.end + 0.01 && segment.text.includes(sentence.text), JSON.stringify({ sentence, segment }));
    }
    sentencesSaid[customer] = customerSentences.map((s) => s.score);
    return transcript.sentiment.speakers.find((s) => s.speaker === 'channel_1')!.mean;
  }

  test('an angry customer scores negative, a pleased one positive', async () => {
    const angry = await customerSentiment('This is terrible. I am very angry, your service is awful.');
    const pleased = await customerSentiment('That is wonderful, thank you so much, you are very helpful.');
    assert.ok(angry < 0, `angry: ${angry}`);
    assert.ok(pleased > 0, `pleased: ${pleased}`);
    assert.ok(Math.min(...Object.values(sentencesSaid)[0]!) < 0 && Math.max(...Object.values(sentencesSaid)[1]!) > 0, JSON.stringify(sentencesSaid));

    // The list filters by a speaker's sentiment: the unhappy customers, the happy ones, anyone's.
    const [angryId, pleasedId] = Object.values(ids);
    const listed = async (query: { sentiment_speaker?: string; sentiment_min?: number; sentiment_max?: number }) => (await client.listRecordings({ query })).data.map((r) => r.id).sort();
    assert.deepEqual(await listed({ sentiment_speaker: 'channel_1', sentiment_max: -0.05 }), [angryId]);
    assert.deepEqual(await listed({ sentiment_speaker: 'channel_1', sentiment_min: 0.05 }), [pleasedId]);
    assert.deepEqual(await listed({ sentiment_min: -1, sentiment_max: 1 }), [angryId, pleasedId].sort());
    assert.deepEqual(await listed({ sentiment_speaker: 'nobody', sentiment_min: -1 }), []);
    const report = await client.getRecordingsReport({ query: { sentiment_max: -0.05, sentiment_speaker: 'channel_1' } });
    assert.deepEqual(report.groups.map((g) => g.recordings), [1], 'the report takes the same filter');
    await rejectsWith(listed({ sentiment_min: 2 }), 400, 'validation_failed');
  });
});
