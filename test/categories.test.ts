// Call categories over HTTP, through the shipped TypeScript client, on a recognised two-channel
// call: rules over phrases (said or not, by a speaker, early), what was meant (similar_to, by
// sentence embeddings), sentiment and talk statistics,
// evaluated on the new transcript, read per recording and as a list filter, evaluated again over
// past calls, and refused when malformed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { meets } from '../src/features/categories/category-rule.ts';
import { packVectors, segmentVectors, unpackVectors } from '../src/core/transcripts/segment-vectors.ts';
import { cosineSimilarity as cosine } from '../src/engines/text/sentence-encoder.ts';
import { latestTranscript } from '../src/core/transcripts/transcript.ts';
import type { Hark as HarkClient, Schemas } from '../clients/typescript/src/index.ts';
import { transcriptionEnds } from './helpers/api.ts';
import { speech, stereoCall } from './helpers/audio.ts';
import { backends, eventually, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

test('all and any; talk and sentiment conditions of a speaker or of the call', () => {
  const transcript = {
    segments: [
      { start: 0, end: 2, text: 'hello', speaker: 'agent', channel: 0 },
      { start: 3, end: 5, text: 'this is awful', speaker: 'customer', channel: 1 },
    ],
    words: [],
    stats: { speakers: [{ speaker: 'agent', channel: 0, talk_seconds: 2, talk_ratio: 0.5, words: 1, words_per_minute: 30, turns: 1, longest_turn_seconds: 2, interruptions: 0 }], silence_seconds: 4, overlap_seconds: 0, interruptions: 0 },
    sentiment: { segments: [0, -0.8], speakers: [{ speaker: 'customer', mean: -0.8, first_third: null, last_third: -0.8, segments: 1 }] },
  };
  const silence = { type: 'talk' as const, metric: 'silence_seconds' as const, op: 'above' as const, value: 3 };
  const happy = { type: 'sentiment' as const, speaker: 'customer', op: 'above' as const, value: 0 };
  assert.equal(meets({ match: 'all', conditions: [silence] }, transcript), true);
  assert.equal(meets({ match: 'all', conditions: [silence, happy] }, transcript), false);
  assert.equal(meets({ match: 'any', conditions: [silence, happy] }, transcript), true);
  assert.equal(meets({ match: 'all', conditions: [{ type: 'sentiment', op: 'below', value: -0.3 }] }, transcript), true, 'the call: mean of -0.4');
  assert.equal(meets({ match: 'all', conditions: [{ type: 'talk', metric: 'talk_ratio', speaker: 'agent', op: 'below', value: 0.6 }] }, transcript), true);
  assert.equal(meets({ match: 'all', conditions: [{ type: 'sentiment', speaker: 'customer', part: 'first_third', op: 'below', value: 0 }] }, transcript), false, 'nothing said in the first third');
});

test('similar_to: a segment in scope as close as the threshold asks to the text meant', () => {
  const segments = [
    { start: 0, end: 2, text: 'hello there', speaker: 'agent', channel: 0 },
    { start: 30, end: 33, text: 'i want a refund', speaker: 'customer', channel: 1 },
  ];
  // Vectors stand in for the encoder's: the text is [1, 0, 0]; the customer's segment at 0.8 from it.
  const transcript = {
    segments,
    words: [],
    stats: { speakers: [], silence_seconds: 0, overlap_seconds: 0, interruptions: 0 },
    sentiment: { segments: [0, 0], speakers: [] },
    meaning: { segments: [[0, 1, 0], [0.8, 0.6, 0]], texts: new Map([['money back', [1, 0, 0]]]) },
  };
  const similar = (extra: object) => meets({ match: 'all', conditions: [{ type: 'similar_to', text: 'money back', ...extra }] }, transcript);
  assert.equal(similar({}), true, '0.8 reaches the default 0.6');
  assert.equal(similar({ threshold: 0.9 }), false);
  assert.equal(similar({ speaker: 'agent' }), false, 'the agent said nothing like it');
  assert.equal(similar({ within_seconds: 20 }), false, 'not in the first 20 s');
  assert.equal(meets({ match: 'all', conditions: [{ type: 'similar_to', text: 'money back', speaker: 'customer', within_seconds: 31 }] }, transcript), true);
});

test('a speaker is read as questions read one: in any case; on a call that cannot tell speakers apart, phrases are looked for in everyone\'s words and a speaker\'s talk or sentiment does not hold', () => {
  const named = {
    segments: [
      { start: 0, end: 2, text: 'this call may be recorded', speaker: 'agent', channel: 0 },
      { start: 3, end: 5, text: 'this is awful', speaker: 'customer', channel: 1 },
    ],
    words: [],
    stats: { speakers: [{ speaker: 'customer', channel: 1, talk_seconds: 2, talk_ratio: 0.5, words: 3, words_per_minute: 90, turns: 1, longest_turn_seconds: 2, interruptions: 2 }], silence_seconds: 1, overlap_seconds: 0, interruptions: 2 },
    sentiment: { segments: [0, -0.8], speakers: [{ speaker: 'customer', mean: -0.8, first_third: -0.8, last_third: -0.8, segments: 1 }] },
  };
  const rule = (condition: Parameters<typeof meets>[0]['conditions'][number]) => ({ match: 'all' as const, conditions: [condition] });
  assert.equal(meets(rule({ type: 'phrase', phrases: ['may be recorded'], speaker: 'Agent' }), named), true, '"Agent" is the transcript\'s "agent"');
  assert.equal(meets(rule({ type: 'sentiment', speaker: 'CUSTOMER', op: 'below', value: 0 }), named), true);
  assert.equal(meets(rule({ type: 'talk', metric: 'interruptions', speaker: 'Customer', op: 'above', value: 1 }), named), true);
  // Transcribed before the scenario named the channels: channel_0 and channel_1.
  const unnamed = { ...named, segments: named.segments.map((s) => ({ ...s, speaker: `channel_${s.channel}` })), stats: { ...named.stats, speakers: named.stats.speakers.map((s) => ({ ...s, speaker: 'channel_1' })) }, sentiment: { ...named.sentiment, speakers: [{ ...named.sentiment.speakers[0]!, speaker: 'channel_1' }] } };
  assert.equal(meets(rule({ type: 'phrase', phrases: ['may be recorded'], said: false, speaker: 'agent' }), unnamed), false, 'said by someone: not "the agent did not say it"');
  assert.equal(meets(rule({ type: 'phrase', phrases: ['may be recorded'], speaker: 'agent' }), unnamed), true);
  assert.equal(meets(rule({ type: 'sentiment', speaker: 'customer', op: 'below', value: 0 }), unnamed), false, 'no customer to score');
  assert.equal(meets(rule({ type: 'talk', metric: 'interruptions', speaker: 'customer', op: 'above', value: 1 }), unnamed), false);
  // Where channels are named, a speaker the call lacks said nothing.
  assert.equal(meets(rule({ type: 'phrase', phrases: ['may be recorded'], said: false, speaker: 'supervisor' }), named), true);
});

test('a phrase condition is met by a phrase spotted in the audio where the words garble it', () => {
  const transcript = {
    segments: [{ start: 0, end: 3, text: 'thank you for calling a nice apart', speaker: 'agent', channel: 0 }],
    words: [],
    spotted: [{ phrase: 'acme support', start: 1.2, end: 2.3, channel: 0, speaker: 'agent', confidence: 0.86 }],
    stats: { speakers: [], silence_seconds: 0, overlap_seconds: 0, interruptions: 0 },
    sentiment: { segments: [0], speakers: [] },
  };
  assert.equal(meets({ match: 'all', conditions: [{ type: 'phrase', phrases: ['Acme support'], speaker: 'agent' }] }, transcript), true);
  assert.equal(meets({ match: 'all', conditions: [{ type: 'phrase', phrases: ['acme support'], said: false }] }, transcript), false);
  assert.equal(meets({ match: 'all', conditions: [{ type: 'phrase', phrases: ['acme support'], within_seconds: 1 }] }, transcript), false, 'spotted after the first second');
});

test('segment vectors are kept in a byte each, moving a similarity by less than 0.01', () => {
  const vectors = Array.from({ length: 5 }, (_, v) => Array.from({ length: 512 }, (_, i) => Math.sin(i * (v + 1) * 0.37) / 22));
  const unpacked = unpackVectors(packVectors(vectors));
  assert.equal(unpacked.length, 5);
  for (let a = 0; a < 5; a++) for (let b = 0; b < 5; b++) assert.ok(Math.abs(cosine(vectors[a]!, vectors[b]!) - cosine(unpacked[a]!, unpacked[b]!)) < 0.01);
  assert.deepEqual(unpackVectors(packVectors([])), []);
  assert.deepEqual(unpackVectors(''), [], 'nothing kept reads as no vectors');
});

for (const backend of await backends()) {
  describe(`call categories on ${backend}`, () => {
    let hark: Hark;
    let client: HarkClient;
    const ids: Record<string, string> = {};
    let recordingId = '';
    const withCategory = async (category: string) => (await client.listRecordings({ query: { category } })).data.map((r) => r.id);

    before(async () => {
      hark = await startHark({ backend });
      client = hark.client((await registerAccount(hark)).key);
      const sct = (await client.listTranscriptionScenarios()).data[0]!.id;
      await client.updateTranscriptionScenario({ path: { scenario_id: sct }, body: { options: { speaker_labels: { 0: 'agent', 1: 'customer' } } } });
      const rules: Record<string, Schemas['CategoryRule']> = {
        refund: { match: 'all', conditions: [{ type: 'phrase', phrases: ['refund'], speaker: 'agent' }] },
        no_greeting: { match: 'all', conditions: [{ type: 'phrase', phrases: ['thank you for calling'], said: false, speaker: 'agent', within_seconds: 15 }] },
        angry: { match: 'all', conditions: [{ type: 'sentiment', speaker: 'customer', op: 'below', value: -0.2 }] },
        long_silence: { match: 'all', conditions: [{ type: 'talk', metric: 'silence_seconds', op: 'above', value: 100 }] },
      };
      for (const [name, rule] of Object.entries(rules)) ids[name] = (await client.createCategory({ body: { name, rule } })).id;
      const call = stereoCall(
        [
          { channel: 0, at: 0.3, text: 'Thank you for calling, this is Sam.' },
          { channel: 1, at: 3.5, text: 'This is terrible. I am very angry, your service is awful.' },
          { channel: 0, at: 8, text: 'I am going to refund the full amount today.' },
        ],
        13,
      );
      recordingId = (await client.upload(call)).id;
      await client.waitForRecording(recordingId);
      const run = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: {} });
      assert.equal((await transcriptionEnds(client, run.id, 90_000)).status, 'completed');
    });
    after(() => hark.destroy());

    test('a new transcript is categorised: what it meets, per recording and as a list filter', async () => {
      const met = (await client.listRecordingCategories({ path: { recording_id: recordingId } })).data.map((c) => c.name);
      assert.deepEqual(met.sort(), ['angry', 'refund']);
      assert.deepEqual(await withCategory(ids.angry!), [recordingId]);
      assert.deepEqual(await withCategory(`${ids.long_silence},${ids.refund}`), [recordingId], 'any of several');
      assert.deepEqual(await withCategory(ids.long_silence!), []);
    });

    test('a category added later is evaluated over past recordings on demand', async () => {
      const created = await client.createCategory({ body: { name: 'money back', rule: { match: 'any', conditions: [{ type: 'phrase', phrases: ['refund'] }] } } });
      assert.deepEqual(await withCategory(created.id), []);
      const events = async () => (await hark.runtime.ctx.db.selectFrom('webhook_events').select('payload').where('type', '=', 'recording.categorized').execute()).map((e) => (JSON.parse(e.payload) as { data: { recording_id: string; categories: string[] } }).data);
      await client.createWebhook({ body: { url: 'https://hooks.example.com/hark', events: ['recording.categorized'] } });
      assert.deepEqual(await client.evaluateCategory({ path: { category_id: created.id } }), { recordings: 1, matched: 1 });
      assert.deepEqual(await withCategory(created.id), [recordingId]);
      // The list counts the calls each category has, as the list's filter finds them.
      const listed = (await client.listCategories()).data.find((c) => c.id === created.id);
      assert.equal(listed?.recordings, (await withCategory(created.id)).length);
      const said = (await events()).at(-1);
      assert.equal(said?.recording_id, recordingId, 'the recording that gained the category says so');
      assert.deepEqual(said?.categories.sort(), [ids.angry, ids.refund, created.id].sort(), 'with every category it now has');
      const count = (await events()).length;
      await client.evaluateCategory({ path: { category_id: created.id } });
      assert.equal((await events()).length, count, 'nothing changed, nothing said');
      const renamed = await client.updateCategory({ path: { category_id: created.id }, body: { name: 'mentions money back' } });
      assert.equal(renamed.name, 'mentions money back');
      // Saved again unchanged (an editor saving its whole form), nothing is written.
      const same = await client.updateCategory({ path: { category_id: created.id }, body: { name: 'mentions money back', rule: renamed.rule } });
      assert.equal(same.updated_at, renamed.updated_at);
      assert.equal(await client.deleteCategory({ path: { category_id: created.id } }), null, '204, no body');
      await rejectsWith(client.getCategory({ path: { category_id: created.id } }), 404, 'not_found');
    });

    test('similar_to: a call is sorted by what a speaker meant, whatever the words; the segment vectors are kept with the transcript', async () => {
      const similar = async (name: string, text: string, speaker: string) => (await client.createCategory({ body: { name, rule: { match: 'all', conditions: [{ type: 'similar_to', text, speaker }] } } })).id;
      const moneyBack = await similar('money back', 'I will give you your money back', 'agent');
      const unhappy = await similar('unhappy', 'I am really unhappy with your service', 'customer');
      const unhappyAgent = await similar('unhappy agent', 'I am really unhappy with your service', 'agent');
      const weather = await similar('weather', 'What will the weather be like tomorrow?', 'customer');
      for (const id of [moneyBack, unhappy, unhappyAgent, weather]) await client.evaluateCategory({ path: { category_id: id } });
      assert.deepEqual(await withCategory(moneyBack), [recordingId], 'the agent: "refund the full amount"');
      assert.deepEqual(await withCategory(unhappy), [recordingId], 'the customer: "your service is awful"');
      assert.deepEqual(await withCategory(unhappyAgent), [], 'not said by the agent');
      assert.deepEqual(await withCategory(weather), []);
      const kept = await hark.runtime.ctx.db.selectFrom('transcripts').select(['segments', 'segment_vectors']).where('recording_id', '=', recordingId).executeTakeFirstOrThrow();
      assert.equal(unpackVectors(kept.segment_vectors!).length, (kept.segments as unknown[]).length, 'one vector per segment, kept');
      // Only the rules that ask for them read the vectors: a transcript read leaves them out, and kept ones are not made again.
      const { workspace_id } = await hark.runtime.ctx.db.selectFrom('recordings').select('workspace_id').where('id', '=', recordingId).executeTakeFirstOrThrow();
      const read = await latestTranscript(hark.runtime.ctx.db, workspace_id, recordingId);
      assert.equal(read !== undefined && 'segment_vectors' in read, false, 'a transcript read leaves the vectors out');
      let embedded = 0;
      const again = await segmentVectors(hark.runtime.ctx.db, read!, kept.segments as { text: string }[], async (texts) => {
        embedded += texts.length;
        return texts.map(() => []);
      });
      assert.equal(embedded, 0, 'the kept vectors are read, not made again');
      assert.equal(again.length, (kept.segments as unknown[]).length);
      // A new transcript is sorted by them too: by a job, once it is stored (the sentences are embedded outside its transaction).
      const rerun = await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: {} });
      const done = await transcriptionEnds(client, rerun.id, 90_000);
      await eventually(async () => (await client.listRecordingCategories({ path: { recording_id: recordingId } })).data.some((c) => c.id === moneyBack && c.transcript_id === done.transcript_id), 60_000, 'the new transcript categorised');
      const latest = (await client.listRecordingCategories({ path: { recording_id: recordingId } })).data.map((c) => c.name).sort();
      assert.deepEqual(latest, ['angry', 'money back', 'refund', 'unhappy']);
      await rejectsWith(client.createCategory({ body: { name: 'x', rule: { match: 'all', conditions: [{ type: 'similar_to', text: '', threshold: 2 }] } } }), 400, 'validation_failed');
      for (const id of [moneyBack, unhappy, unhappyAgent, weather]) await client.deleteCategory({ path: { category_id: id } });
    });

    test('malformed categories and filters are 400; another workspace sees none', async () => {
      // Bodies the client's types refuse, sent as they would arrive from elsewhere.
      const create = (body: unknown) => client.createCategory({ body: body as Schemas['Category'] });
      await rejectsWith(create({ name: 'x', rule: { match: 'all', conditions: [] } }), 400, 'validation_failed');
      await rejectsWith(create({ name: 'x', rule: { match: 'all', conditions: [{ type: 'talk', metric: 'shouting', op: 'above', value: 1 }] } }), 400, 'validation_failed');
      await rejectsWith(create({ name: ' ', rule: { match: 'all', conditions: [{ type: 'phrase', phrases: ['x'] }] } }), 400, 'validation_failed');
      const callWide = await rejectsWith(create({ name: 'quiet agent', rule: { match: 'all', conditions: [{ type: 'talk', metric: 'silence_seconds', speaker: 'agent', op: 'above', value: 30 }] } }), 400, 'validation_failed');
      assert.match(callWide.detail, /conditions\/0\/speaker.*the call's/, 'a call-wide statistic takes no speaker');
      await rejectsWith(client.listRecordings({ query: { category: 'nope' } }), 400, 'validation_failed');
      // A name is one category's, whatever its case: the list, the filter and the report's groups tell them apart by it.
      const before = (await client.listCategories()).data.length;
      await rejectsWith(create({ name: ' Angry ', rule: { match: 'all', conditions: [{ type: 'phrase', phrases: ['x'] }] } }), 409, 'category_name_taken');
      assert.equal((await client.listCategories()).data.length, before, 'nothing created');
      await rejectsWith(client.updateCategory({ path: { category_id: ids.refund! }, body: { name: 'ANGRY' } }), 409, 'category_name_taken');
      assert.equal((await client.getCategory({ path: { category_id: ids.refund! } })).name, 'refund', 'nothing renamed');
      assert.equal((await client.updateCategory({ path: { category_id: ids.refund! }, body: { name: 'Refund' } })).name, 'Refund', 'its own name, in another case');
      await client.updateCategory({ path: { category_id: ids.refund! }, body: { name: 'refund' } });
      const other = hark.client((await registerAccount(hark)).key);
      await rejectsWith(other.getCategory({ path: { category_id: ids.angry! } }), 404, 'not_found');
      assert.deepEqual((await other.listCategories()).data, []);
    });

    test('a workspace has at most 100 categories, however many are asked for at once', async () => {
      const own = hark.client((await registerAccount(hark)).key);
      const rule = { match: 'all' as const, conditions: [{ type: 'phrase' as const, phrases: ['x'] }] };
      for (let i = 0; i < 96; i++) await own.createCategory({ body: { name: `c${i}`, rule } });
      const settled = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => own.createCategory({ body: { name: `at once ${i}`, rule } })));
      assert.equal(settled.filter((r) => r.status === 'fulfilled').length, 4);
      for (const refused of settled.filter((r) => r.status === 'rejected')) assert.equal((refused.reason as { code?: string }).code, 'category_limit_reached');
      assert.equal((await own.listCategories()).data.length, 100);
      await rejectsWith(own.createCategory({ body: { name: 'one more', rule } }), 409, 'category_limit_reached');
    });

    test('reports group by category: a recording meeting two counts in both, one meeting none under null', async () => {
      await client.waitForRecording((await client.upload(speech('Hello there.'))).id);
      const recordings = await client.getRecordingsReport({ query: { group_by: ['category'] } });
      assert.deepEqual(recordings.groups.map((g) => [g.key.category, g.recordings]), [['angry', 1], ['refund', 1], [null, 1]]);
      const talk = await client.getTalkReport({ query: { group_by: ['category'] } });
      assert.deepEqual(talk.groups.map((g) => [g.key.category, g.transcripts]), [['angry', 1], ['refund', 1]], 'only transcribed calls have talk');
      const filtered = await client.getRecordingsReport({ query: { group_by: ['category'], category: ids.angry! } });
      assert.deepEqual(filtered.groups.map((g) => [g.key.category, g.recordings]), [['angry', 1], ['refund', 1]], 'the filter picks calls; the groups are all their categories');
      // The analysis report reads its facts table, joined the same way.
      const scenario = (await client.listAnalysisScenarios()).data[0]!.id;
      const analysed = await client.createAnalysisRun({ path: { recording_id: recordingId }, body: { analysis_scenario_id: scenario } });
      await eventually(async () => (await client.getAnalysisRun({ path: { run_id: analysed.id } })).status === 'completed', 60_000, 'the analysis');
      const analysis = await client.getAnalysisReport({ query: { analysis_scenario_id: scenario, group_by: ['category'] } });
      assert.deepEqual(analysis.groups.map((g) => [g.key.category, g.calls]), [['angry', 1], ['refund', 1]]);
      await rejectsWith(client.getRecordingsReport({ query: { group_by: ['category', 'category'] } }), 400, 'validation_failed');
    });
  });
}
