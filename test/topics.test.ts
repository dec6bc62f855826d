// What a call is about: key phrases weighed by how rarely spoken English says them, chapters cut
// where the subject changes (sentence embeddings, on the host), and the list filtered by a topic
// (over HTTP through the shipped TypeScript client).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { keyPhrases } from '../src/core/transcripts/key-phrases.ts';
import { chapterStarts, mayHaveChapters, retitledChapters, transcriptChapters } from '../src/core/transcripts/chapters.ts';
import { embedSentences } from '../src/engines/text/sentence-encoder.ts';
import { stereoCall } from './helpers/audio.ts';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { oneBackend, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

const timed = (texts: string[], every = 4) => texts.map((text, i) => ({ text, start: i * every, end: i * every + every - 0.5 }));

test('a word the recogniser heard with little confidence is no topic: a misheard name is not offered as one', () => {
  const segments = [{ text: 'Thank you for calling acne support, your router is fine.', start: 0, end: 4, channel: 0 }];
  const heard = (confidence: number) =>
    segments[0]!.text.replace(/[.,]/g, '').split(' ').map((word, i) => ({ word: word.toLowerCase(), start: i * 0.4, end: i * 0.4 + 0.3, channel: 0, confidence: word === 'acne' ? confidence : 0.95 }));
  assert.ok(keyPhrases(segments).some((k) => k.text.includes('acne')), 'from the text alone, the misheard word is a topic');
  const sure = keyPhrases(segments, heard(0.9)).map((k) => k.text);
  assert.ok(sure.some((k) => k.includes('acne')), sure.join(', '));
  const doubtful = keyPhrases(segments, heard(0.1)).map((k) => k.text);
  assert.ok(!doubtful.some((k) => k.includes('acne')) && doubtful.includes('router'), doubtful.join(', '));
});

test('key phrases: rare words outrank common ones, noun phrases stay whole, verbs count by their lemma, each with where it was said', () => {
  const found = keyPhrases(
    timed([
      'My router keeps dropping the internet connection every time.',
      'Did you try restarting the router?',
      'Yes, I restarted the router twice.',
      'I would also like to update my new billing address.',
      'We will refund the full amount.',
    ]),
  );
  const texts = found.map((k) => k.text);
  assert.equal(texts[0], 'router', texts.join(', '));
  assert.deepEqual(found[0]!.timestamps, [{ start: 0, end: 3.5 }, { start: 4, end: 7.5 }, { start: 8, end: 11.5 }]);
  assert.equal(found[0]!.count, 3);
  assert.equal(found[0]!.rank, 1);
  assert.ok(texts.includes('restart'), 'restarting and restarted are one verb');
  assert.equal(found.find((k) => k.text === 'restart')!.count, 2);
  assert.ok(texts.includes('billing address'), 'a common adjective does not lead the phrase');
  assert.ok(texts.includes('internet connection'));
  assert.ok(texts.includes('refund'));
  assert.ok(!texts.some((t) => ['time', 'amount', 'address'].includes(t)), `common words and phrases inside kept ones are left out: ${texts.join(', ')}`);
  assert.ok(found.every((k, i) => i === 0 || k.rank <= found[i - 1]!.rank));
  assert.deepEqual(keyPhrases(timed(['okay yes thank you', 'you know what I mean'])), []);
});

test('small talk and a common verb said once are no topics; a rare verb said once is', () => {
  const texts = keyPhrases(
    timed([
      'Good morning, my modem light keeps blinking.',
      'I read the manual and I tried to meet the technician.',
      'Please escalate the modem fault.',
      'Thank you, have a wonderful evening.',
    ]),
  ).map((k) => k.text);
  assert.ok(texts.some((t) => t.includes('modem')), texts.join(', '));
  assert.ok(texts.includes('escalate'), `a rare verb said once is a topic: ${texts.join(', ')}`);
  for (const none of ['read', 'meet', 'wonderful evening', 'evening', 'morning']) assert.ok(!texts.includes(none), `${none} in ${texts.join(', ')}`);
});

test('a redaction marker is no topic, and a segment is listed once among a phrase\'s places', () => {
  const phrases = keyPhrases([
    { start: 0, end: 4, text: 'My phone number is [PHONE_NUMBER] and my card number is [CREDIT_CARD].' },
    { start: 5, end: 9, text: 'The router keeps dropping, the router light is red.' },
  ]);
  const texts = phrases.map((p) => p.text.toLowerCase());
  assert.ok(!texts.some((t) => /phone_number|credit_card|^phone$|^credit$/.test(t)), texts.join(' · '));
  for (const phrase of phrases) {
    const places = phrase.timestamps.map((t) => `${t.start}-${t.end}`);
    assert.equal(new Set(places).size, places.length, `${phrase.text}: ${places.join(', ')}`);
  }
});

test('chapters start at the deepest drop in similarity, never leaving a chapter too short; short calls are one chapter, never embedded', async () => {
  const near = (axis: number, wobble: number) => Array.from({ length: 8 }, (_, i) => (i === axis ? 1 : 0) + (i === 7 ? wobble : 0));
  const vectors = [...Array.from({ length: 7 }, (_, i) => near(0, (i % 3) * 0.2)), ...Array.from({ length: 6 }, (_, i) => near(1, (i % 2) * 0.2))];
  const units = timed(vectors.map(() => 'x'));
  assert.deepEqual(chapterStarts(vectors, units), [7]);
  // A change after two segments is too early for a chapter of its own.
  const early = [near(0, 0), near(0, 0.1), ...Array.from({ length: 8 }, () => near(1, 0))];
  assert.deepEqual(chapterStarts(early, timed(early.map(() => 'x'))), []);
  // One subject throughout: no break.
  const same = Array.from({ length: 12 }, (_, i) => near(0, (i % 4) * 0.1));
  assert.deepEqual(chapterStarts(same, timed(same.map(() => 'x'))), []);

  const short = timed(['thank you for calling', 'my router is down', 'let me help']);
  assert.equal(mayHaveChapters(short), false);
  const chapters = await transcriptChapters(short, () => Promise.reject(new Error('a short call is never embedded')));
  assert.deepEqual(chapters, [{ start: 0, end: 11.5, title: 'router', first_segment: 0, last_segment: 2 }]);

  // A corrected version keeps where chapters start and takes its titles from the new words.
  const segments = timed(['the router is down', 'the router light is red', 'restart the router', 'my billing address changed', 'update the billing address', 'the address is saved']);
  const corrected = retitledChapters([{ start: 0, end: 11.5, title: 'router', first_segment: 0, last_segment: 2 }, { start: 12, end: 23.5, title: 'billing address', first_segment: 3, last_segment: 5 }], segments.map((s, i) => (i < 3 ? { ...s, text: s.text.replace('router', 'modem') } : s)));
  assert.deepEqual(corrected.map((c) => [c.title, c.first_segment, c.last_segment]), [['modem', 0, 2], ['billing address', 3, 5]]);
});

test('sentences are embedded on the host in batches, each vector as if embedded alone', async () => {
  const handlers = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
  const texts = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `my router dropped the connection ${i} times` : `please update my billing address number ${i}`));
  const vectors = await embedSentences(texts);
  assert.equal(vectors.length, 40);
  assert.ok(vectors.every((v) => v.length === 512));
  // tfjs's Emscripten build adds handlers that rethrow every uncaught error; the encoder removes them.
  assert.deepEqual([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')], handlers);
  const [alone] = await embedSentences([texts[35]!]);
  assert.ok(alone!.every((value, i) => Math.abs(value - vectors[35]![i]!) < 1e-4), 'the 36th, in the second batch, is the same vector');
  const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i]!, 0) / Math.hypot(...a) / Math.hypot(...b);
  assert.ok(cosine(vectors[0]!, vectors[2]!) > cosine(vectors[0]!, vectors[1]!), 'alike sentences are nearer');
});

// The store plays no part in what this suite proves (audio, engines, HTTP shapes): one backend.
for (const backend of await oneBackend()) {
  describe(`topics and chapters on ${backend}`, () => {
    let hark: Hark;
    let client: HarkClient;
    /** Uploads a call, transcribes it (the default scenario unless named) and answers its transcript. */
    const transcribed = async (file: string, scenarioId?: string) => client.transcribe(file, scenarioId ? { scenarioId } : {});
    before(async () => {
      hark = await startHark({ backend });
      client = hark.client((await registerAccount(hark)).key);
    });
    after(() => hark.destroy());

    test('a call that changes subject is cut in two chapters, titled by what each is about; the list filters by a topic', async () => {
      const internet = ['My internet connection keeps dropping every evening.', 'Did you restart your internet box?', 'Yes, I restarted it twice and the internet is still down.', 'The internet light is still red.', 'I will send an engineer to fix your internet today.', 'Thank you, I need the internet for my work.'];
      const billing = ['I also want to change my billing address.', 'Sure, what is the new billing address?', 'It is twelve High Street.', 'Your billing address is updated.', 'Will my next invoice go there?', 'Yes, the next invoice goes to the new address.'];
      const said = [...internet, ...billing].map((text, i) => ({ channel: (i % 2) as 0 | 1, at: 0.3 + i * 3.4, text }));
      const file = stereoCall(said, 42);
      const call = await transcribed(file);
      const id = call.recording_id;
      await transcribed(stereoCall([{ channel: 0, at: 0.3, text: 'Thank you for calling, how can I help you?' }, { channel: 1, at: 3.5, text: 'I want to pay my bill.' }], 6));
      const phrases = call.key_phrases.map((k) => k.text);
      assert.ok(phrases.slice(0, 3).some((p) => /\binternet\b/.test(p)), phrases.join(', '));
      assert.ok(phrases.some((p) => /\baddress\b/.test(p)), phrases.join(', '));
      assert.equal(call.chapters.length, 2, JSON.stringify(call.chapters));
      const [first, second] = [call.chapters[0]!, call.chapters[1]!];
      // The second chapter starts with the first sentence about billing, give or take one segment.
      const firstBilling = said[internet.length]!.at;
      assert.ok(Math.abs(second.start - firstBilling) < 4, `${JSON.stringify(call.chapters)} vs ${firstBilling}`);
      assert.match(first.title, /internet|restart/);
      assert.match(second.title, /address|invoice/);
      assert.equal(first.first_segment, 0);
      assert.equal(second.last_segment, call.segments.length - 1);
      assert.equal(second.first_segment, first.last_segment + 1);

      const listed = async (topic: string) => (await client.listRecordings({ query: { topic } })).data.map((r) => r.id);
      assert.deepEqual(await listed('Internet'), [id]);
      assert.deepEqual(await listed('billing address'), [id]);
      assert.deepEqual(await listed('intern'), [], 'whole words only');
      await rejectsWith(listed('internet.*'), 400, 'validation_failed');
      // A topic or a sentiment tells what calls say: a key that may list recordings but not read transcripts may not ask.
      const lister = hark.client((await client.createApiKey({ body: { name: 'lists only', scopes: ['recordings:read'] } })).key);
      assert.equal((await lister.listRecordings({ query: {} })).data.length, 2);
      for (const query of [{ topic: 'internet' }, { sentiment_max: 0 }, { sentiment_min: 0.5, sentiment_speaker: 'customer' }]) await rejectsWith(lister.listRecordings({ query }), 403, 'insufficient_scope');
      // Nor through a report or an answer table, which take the same filters.
      const counter = hark.client((await client.createApiKey({ body: { name: 'reports and answers', scopes: ['reports:read', 'analysis:read', 'recordings:read'] } })).key);
      const scenario = (await client.createAnalysisScenario({ body: { name: `topics ${Math.random()}`, questions: [{ id: 'q', text: 'Was a refund offered?', type: 'boolean' }] } })).id;
      assert.equal((await counter.getRecordingsReport({ query: {} })).groups[0]?.recordings, 2);
      for (const query of [{ topic: 'internet' }, { sentiment_max: 0 }, { missing_speaker: 'agent' }]) {
        await rejectsWith(counter.getRecordingsReport({ query }), 403, 'insufficient_scope');
        await rejectsWith(counter.getTalkReport({ query }), 403, 'insufficient_scope');
        await rejectsWith(counter.getAnalysisReport({ query: { analysis_scenario_id: scenario, ...query } }), 403, 'insufficient_scope');
        await rejectsWith(counter.getAnswerTable({ path: { scenario_id: scenario }, query }), 403, 'insufficient_scope');
      }
      assert.equal((await client.getRecordingsReport({ query: { topic: 'internet' } })).groups[0]?.recordings, 1, 'with transcripts:read it filters');
    });

    test('a scenario without chapters keeps the call whole', async () => {
      const created = await client.createTranscriptionScenario({ body: { name: 'Whole', options: { chapters: false } } });
      assert.equal(created.options.chapters, false);
      const said = ['My router keeps dropping the connection.', 'Did you restart the router?', 'The router light is red.', 'I want to change my billing address.', 'What is the new address?', 'Your billing address is updated.'].map((text, i) => ({ channel: (i % 2) as 0 | 1, at: 0.3 + i * 5.5, text }));
      const transcript = await transcribed(stereoCall(said, 34), created.id);
      assert.equal(transcript.chapters.length, 1);
      assert.equal(transcript.chapters[0]!.last_segment, transcript.segments.length - 1);
    });
  });
}
