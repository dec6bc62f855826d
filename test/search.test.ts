// Search across transcripts over HTTP (through the shipped TypeScript client), on transcripts recognised from real (flite) speech: a word
// of one call and not the other, an exact phrase, a metadata filter, paging, the match marked in
// the snippet with the segment's times, bad queries and the scope.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { speech, stereoCall } from './helpers/audio.ts';
import { backends, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

const words = (text: string) => text.toLowerCase().split(/\s+/).filter((w) => /^[a-z]{5,}$/.test(w));

for (const backend of await backends()) {
  describe(`search on ${backend}`, () => {
    let hark: Hark;
    let client: HarkClient;
    const calls: { id: string; text: string; words: { word: string; start: number }[] }[] = [];
    const search = (query: Record<string, string | number>) => client.searchTranscripts({ query: query as { q: string } });

    before(async () => {
      hark = await startHark({ backend });
      client = hark.client((await registerAccount(hark)).key);
      const scripts = [
        { agent: 'alice', text: 'Hello, I would like a refund for my broken washing machine, please.' },
        { agent: 'bob', text: 'Good morning. The delivery of my parcel is late again this week.' },
      ];
      for (const script of scripts) {
        const { id } = await client.upload(speech(script.text), { metadata: { agent: script.agent }, recordedAt: script.agent === 'alice' ? '2026-10-01T09:00:00Z' : '2026-11-02T09:00:00Z' });
        const transcript = await client.transcribe({ id });
        calls.push({ id, text: transcript.text, words: transcript.words });
      }
    });
    after(() => hark.destroy());

    test('a word recognised in one call finds that call only, marked in the snippet with its times', async () => {
      const [first, second] = calls as [(typeof calls)[number], (typeof calls)[number]];
      const word = words(first.text).find((w) => !words(second.text).includes(w));
      assert.ok(word, `no word of five letters or more only in the first transcript: "${first.text}" / "${second.text}"`);
      const { data, next_cursor } = await search({ q: word });
      assert.deepEqual(data.map((hit) => hit.recording_id), [first.id]);
      assert.equal(next_cursor, null);
      const hit = data[0]!;
      assert.match(hit.snippet, new RegExp(`<mark>${word}</mark>`, 'i'));
      assert.ok(hit.end > hit.start && hit.start >= 0, JSON.stringify(hit));
      // `at` is where the word itself is said, to play from there.
      const said = first.words.find((w) => w.word.toLowerCase() === word)!;
      assert.equal(hit.at, said.start, JSON.stringify({ hit, said }));
      assert.equal(hit.speaker, 'channel_0', 'a mono call has one speaker, named after its channel');
      // The hit says which call it is in: file, call date and metadata (the agent).
      assert.match(hit.recording.filename, /\.wav$/);
      assert.deepEqual([hit.recording.recorded_at, hit.recording.metadata], ['2026-10-01T09:00:00.000Z', { agent: 'alice' }]);
      const october = (await search({ q: word, recorded_before: '2026-10-15T00:00:00Z' })).data;
      assert.deepEqual(october.map((h) => h.recording_id), [first.id]);
      assert.deepEqual((await search({ q: word, recorded_after: '2026-10-15T00:00:00Z' })).data, []);
    });

    test('a number shown in digits is found by its words as said', async () => {
      const { id } = await client.upload(speech('Your refund comes to forty dollars, and it arrives on the twelfth.'));
      const transcript = await client.transcribe({ id });
      // A word formatting turned into digits ("forty" shown in "$40"): shown one way, said another.
      const said = transcript.words.find((w) => /^[a-z]+$/.test(w.word) && /\d/.test(w.punctuated_word ?? ''));
      assert.ok(said, `no number written in digits in "${transcript.text}"`);
      assert.ok(!transcript.text.toLowerCase().includes(said.word), `"${said.word}" is not in the text as shown: "${transcript.text}"`);
      const hits = (await search({ q: said.word })).data;
      assert.deepEqual(hits.map((hit) => hit.recording_id), [id], `"${said.word}" finds the call`);
      assert.ok(hits[0]!.start <= said.start && said.start < hits[0]!.end, 'the hit is the segment it is said in');
      assert.deepEqual((await search({ q: said.punctuated_word!.replace(/[^\d]/g, '') })).data.map((hit) => hit.recording_id), [id], 'and by its digits');
      await client.deleteRecording({ path: { recording_id: id } });
    });

    test('an exact phrase, a metadata filter and paging', async () => {
      const [first, second] = calls as [(typeof calls)[number], (typeof calls)[number]];
      const pair = first.text.toLowerCase().split(/\s+/).filter(Boolean).slice(-3, -1).join(' ');
      const phrase = await search({ q: `"${pair}"` });
      assert.ok(phrase.data.some((hit) => hit.recording_id === first.id), `"${pair}" in "${first.text}"`);

      // A word both calls share, if recognition gave one; else one query per call with "or".
      const shared = words(first.text).find((w) => words(second.text).includes(w));
      const q = shared ?? `${words(first.text)[0]} or ${words(second.text)[0]}`;
      const both = (await search({ q })).data;
      assert.deepEqual(both.map((hit) => hit.recording_id), [second.id, first.id], 'newest first');
      const bob = (await search({ q, 'metadata.agent': 'bob' })).data;
      assert.deepEqual(bob.map((hit) => hit.recording_id), [second.id]);
      const page1 = await search({ q, limit: 1 });
      assert.deepEqual(page1.data.map((hit) => hit.recording_id), [second.id]);
      const page2 = await search({ q, limit: 1, cursor: page1.next_cursor! });
      assert.deepEqual(page2.data.map((hit) => hit.recording_id), [first.id]);
      assert.equal(page2.next_cursor, null);
      assert.deepEqual((await search({ q, speaker: 'agent' })).data, [], 'no segment of a mono call is the agent\'s');
      assert.equal((await search({ q, speaker: 'channel_0' })).data.length, 2);
    });

    test('a call transcribed again is found once, in its latest transcript', async () => {
      const [first, second] = calls as [(typeof calls)[number], (typeof calls)[number]];
      const word = words(first.text).find((w) => !words(second.text).includes(w))!;
      const before = (await search({ q: word })).data;
      const scenarioId = (await client.listTranscriptionScenarios()).data[0]!.id;
      const again = await client.transcribe({ id: first.id }, { scenarioId });
      const after = (await search({ q: word })).data;
      assert.deepEqual(after.map((hit) => hit.recording_id), [first.id], 'one hit, not one per transcript');
      assert.equal(after[0]!.transcript_id, again.id);
      assert.notEqual(after[0]!.transcript_id, before[0]!.transcript_id);
    });

    test('a word said in several segments of a call is one hit that says how many, of the speaker asked for too', async () => {
      const file = stereoCall([
        { channel: 0, at: 0, text: 'I would like a refund for the broken kettle.' },
        { channel: 1, at: 4, text: 'Of course, I will send the refund today.', voice: 'kal' },
        { channel: 0, at: 8, text: 'Thank you, the refund is all I need.' },
      ], 12);
      const { id } = await client.upload(file);
      const transcript = await client.transcribe({ id });
      const saying = (speaker?: string) => transcript.segments.filter((s) => /\brefund\b/i.test(s.text) && (speaker === undefined || s.speaker === speaker)).length;
      assert.ok(saying() >= 2, `"refund" recognised in two segments at least: ${JSON.stringify(transcript.segments)}`);
      const hits = (await search({ q: 'refund' })).data.filter((hit) => hit.recording_id === id);
      assert.equal(hits.length, 1, 'one hit per call');
      assert.equal(hits[0]!.matches, saying());
      const theirs = (await search({ q: 'refund', speaker: 'channel_1' })).data.filter((hit) => hit.recording_id === id);
      assert.deepEqual(theirs.map((hit) => [hit.speaker, hit.matches]), saying('channel_1') > 0 ? [['channel_1', saying('channel_1')]] : []);
    });

    test('bad queries are 400; a key without transcripts:read is 403', async () => {
      await rejectsWith(search({}), 400, 'validation_failed');
      await rejectsWith(search({ q: '  ' }), 400, 'validation_failed');
      await rejectsWith(search({ q: 'refund', cursor: 'nope' }), 400, 'validation_failed');
      const created = await client.createApiKey({ body: { name: 'no transcripts', scopes: ['recordings:read'] } });
      const workspace = await client.workspaceId();
      await rejectsWith(hark.client(created.key).searchTranscripts({ path: { workspace_id: workspace }, query: { q: 'refund' } }), 403, 'insufficient_scope');
      // A hit carries its recording's filename and metadata: reading them needs recordings:read too.
      const transcriptsOnly = await client.createApiKey({ body: { name: 'transcripts only', scopes: ['transcripts:read'] } });
      const refused = await rejectsWith(hark.client(transcriptsOnly.key).searchTranscripts({ path: { workspace_id: workspace }, query: { q: 'refund' } }), 403, 'insufficient_scope');
      assert.match(refused.detail, /recordings:read/);
      const scenario = (await client.listAnalysisScenarios()).data[0]!.id;
      const analysisOnly = await client.createApiKey({ body: { name: 'analysis only', scopes: ['analysis:read'] } });
      await rejectsWith(hark.client(analysisOnly.key).getAnswerTable({ path: { workspace_id: workspace, scenario_id: scenario } }), 403, 'insufficient_scope');
    });
  });
}
