// Call categories over HTTP on a recognised two-channel call: rules over phrases (said or not, by a
// speaker, early), sentiment and talk statistics, evaluated on the new transcript, read per
// recording and as a list filter, evaluated again over past calls, and refused when malformed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { meets } from '../src/features/categories/category-rule.ts';
import { upload, waitForRecording } from './helpers/api.ts';
import { speech, stereoCall } from './helpers/audio.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

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

for (const backend of await backends()) {
  describe(`call categories on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => hark.request({ method, url: `${P}${url}`, key: account.key, ...(payload ? { payload } : {}) });
    const ids: Record<string, string> = {};
    let recordingId = '';

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      const sct = (await request('GET', '/transcription-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      await request('PATCH', `/transcription-scenarios/${sct}`, { options: { speaker_labels: { 0: 'agent', 1: 'customer' } } });
      const rules = {
        refund: { match: 'all', conditions: [{ type: 'phrase', phrases: ['refund'], speaker: 'agent' }] },
        no_greeting: { match: 'all', conditions: [{ type: 'phrase', phrases: ['thank you for calling'], said: false, speaker: 'agent', within_seconds: 15 }] },
        angry: { match: 'all', conditions: [{ type: 'sentiment', speaker: 'customer', op: 'below', value: -0.2 }] },
        long_silence: { match: 'all', conditions: [{ type: 'talk', metric: 'silence_seconds', op: 'above', value: 100 }] },
      };
      for (const [name, rule] of Object.entries(rules)) {
        const created = await request('POST', '/categories', { name, rule });
        assert.equal(created.statusCode, 201, created.body);
        ids[name] = created.json<{ id: string }>().id;
      }
      const call = stereoCall(
        [
          { channel: 0, at: 0.3, text: 'Thank you for calling, this is Sam.' },
          { channel: 1, at: 3.5, text: 'This is terrible. I am very angry, your service is awful.' },
          { channel: 0, at: 8, text: 'I am going to refund the full amount today.' },
        ],
        13,
      );
      recordingId = (await upload(hark, account, call)).json<{ id: string }>().id;
      await waitForRecording(hark, account, recordingId, ['completed']);
      const run = (await request('POST', `/recordings/${recordingId}/transcription-runs`)).json<{ id: string }>();
      await eventually(async () => (await request('GET', `/transcription-runs/${run.id}`)).json<{ status: string }>().status === 'completed', 90_000, 'the run');
    });
    after(() => hark.destroy());

    test('a new transcript is categorised: what it meets, per recording and as a list filter', async () => {
      const met = (await request('GET', `/recordings/${recordingId}/categories`)).json<{ data: { name: string }[] }>().data.map((c) => c.name);
      assert.deepEqual(met.sort(), ['angry', 'refund']);
      const listed = async (category: string) => (await request('GET', `/recordings?category=${category}`)).json<{ data: { id: string }[] }>().data.map((r) => r.id);
      assert.deepEqual(await listed(ids.angry!), [recordingId]);
      assert.deepEqual(await listed(`${ids.long_silence},${ids.refund}`), [recordingId], 'any of several');
      assert.deepEqual(await listed(ids.long_silence!), []);
    });

    test('a category added later is evaluated over past recordings on demand', async () => {
      const created = (await request('POST', '/categories', { name: 'money back', rule: { match: 'any', conditions: [{ type: 'phrase', phrases: ['refund'] }] } })).json<{ id: string }>();
      assert.deepEqual((await request('GET', `/recordings?category=${created.id}`)).json<{ data: unknown[] }>().data, []);
      const evaluated = await request('POST', `/categories/${created.id}/evaluate`);
      assert.equal(evaluated.statusCode, 200, evaluated.body);
      assert.deepEqual(evaluated.json(), { recordings: 1, matched: 1 });
      assert.deepEqual((await request('GET', `/recordings?category=${created.id}`)).json<{ data: { id: string }[] }>().data.map((r) => r.id), [recordingId]);
      const renamed = await request('PATCH', `/categories/${created.id}`, { name: 'mentions money back' });
      assert.equal(renamed.json<{ name: string }>().name, 'mentions money back');
      assert.equal((await request('DELETE', `/categories/${created.id}`)).statusCode, 204);
      assertProblem(await request('GET', `/categories/${created.id}`), 404, 'not_found');
    });

    test('malformed categories and filters are 400; another workspace sees none', async () => {
      assertProblem(await request('POST', '/categories', { name: 'x', rule: { match: 'all', conditions: [] } }), 400, 'validation_failed');
      assertProblem(await request('POST', '/categories', { name: 'x', rule: { match: 'all', conditions: [{ type: 'talk', metric: 'shouting', op: 'above', value: 1 }] } }), 400, 'validation_failed');
      assertProblem(await request('POST', '/categories', { name: ' ', rule: { match: 'all', conditions: [{ type: 'phrase', phrases: ['x'] }] } }), 400, 'validation_failed');
      assertProblem(await request('GET', '/recordings?category=nope'), 400, 'validation_failed');
      const other = await registerAccount(hark);
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${other.workspaceId}/categories/${ids.angry}`, key: other.key }), 404, 'not_found');
      assert.deepEqual((await hark.request({ method: 'GET', url: `/api/v1/workspaces/${other.workspaceId}/categories`, key: other.key })).json<{ data: unknown[] }>().data, []);
    });

    test('reports group by category: a recording meeting two counts in both, one meeting none under null', async () => {
      const untranscribed = (await upload(hark, account, speech('Hello there.'))).json<{ id: string }>().id;
      await waitForRecording(hark, account, untranscribed, ['completed']);
      type Groups = { groups: { key: Record<string, string | null>; recordings?: number; transcripts?: number }[] };
      const recordings = (await request('GET', '/reports/recordings?group_by=category')).json<Groups>();
      assert.deepEqual(recordings.groups.map((g) => [g.key.category, g.recordings]), [['angry', 1], ['refund', 1], [null, 1]]);
      const talk = (await request('GET', '/reports/talk?group_by=category')).json<Groups>();
      assert.deepEqual(talk.groups.map((g) => [g.key.category, g.transcripts]), [['angry', 1], ['refund', 1]], 'only transcribed calls have talk');
      const filtered = (await request('GET', `/reports/recordings?group_by=category&category=${ids.angry}`)).json<Groups>();
      assert.deepEqual(filtered.groups.map((g) => [g.key.category, g.recordings]), [['angry', 1], ['refund', 1]], 'the filter picks calls; the groups are all their categories');
      // The analysis report reads its facts table, joined the same way.
      const scenario = (await request('GET', '/analysis-scenarios')).json<{ data: { id: string }[] }>().data[0]!.id;
      const analysed = (await request('POST', `/recordings/${recordingId}/analysis-runs`, { analysis_scenario_id: scenario })).json<{ id: string }>();
      await eventually(async () => (await request('GET', `/analysis-runs/${analysed.id}`)).json<{ status: string }>().status === 'completed', 60_000, 'the analysis');
      const analysis = (await request('GET', `/reports/analysis?analysis_scenario_id=${scenario}&group_by=category`)).json<{ groups: { key: Record<string, string | null>; calls: number }[] }>();
      assert.deepEqual(analysis.groups.map((g) => [g.key.category, g.calls]), [['angry', 1], ['refund', 1]]);
      assertProblem(await request('GET', '/reports/recordings?group_by=category&group_by=category'), 400, 'validation_failed');
    });
  });
}
