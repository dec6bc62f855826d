// Search across transcripts over HTTP, on transcripts recognised from real (flite) speech: a word
// of one call and not the other, an exact phrase, a metadata filter, paging, the match marked in
// the snippet with the segment's times, bad queries and the scope.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { upload, waitForRecording } from './helpers/api.ts';
import { speech } from './helpers/audio.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

interface Hit {
  recording_id: string;
  transcript_id: string;
  start: number;
  end: number;
  speaker: string | null;
  snippet: string;
  recording: { filename: string; recorded_at: string; metadata: Record<string, unknown> };
}

const words = (text: string) => text.toLowerCase().split(/\s+/).filter((w) => /^[a-z]{5,}$/.test(w));

for (const backend of await backends()) {
  describe(`search on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    const calls: { id: string; text: string }[] = [];
    const search = (query: string, key = account.key) => hark.request({ method: 'GET', url: `${P}/search?${query}`, key });

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      const scripts = [
        { agent: 'alice', text: 'Hello, I would like a refund for my broken washing machine, please.' },
        { agent: 'bob', text: 'Good morning. The delivery of my parcel is late again this week.' },
      ];
      for (const script of scripts) {
        const id = (await upload(hark, account, speech(script.text), { fields: { metadata: JSON.stringify({ agent: script.agent }), recorded_at: script.agent === 'alice' ? '2026-10-01T09:00:00Z' : '2026-11-02T09:00:00Z' } })).json<{ id: string }>().id;
        await waitForRecording(hark, account, id, ['completed']);
        const run = (await hark.request({ method: 'POST', url: `${P}/recordings/${id}/transcription-runs`, key: account.key })).json<{ id: string }>();
        await eventually(async () => (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}`, key: account.key })).json<{ status: string }>().status === 'completed', 90_000, 'the run');
        const transcript = (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${run.id}/transcript`, key: account.key })).json<{ text: string }>();
        calls.push({ id, text: transcript.text });
      }
    });
    after(() => hark.destroy());

    test('a word recognised in one call finds that call only, marked in the snippet with its times', async () => {
      const [first, second] = calls as [{ id: string; text: string }, { id: string; text: string }];
      const word = words(first.text).find((w) => !words(second.text).includes(w));
      assert.ok(word, `no word of five letters or more only in the first transcript: "${first.text}" / "${second.text}"`);
      const response = await search(`q=${encodeURIComponent(word)}`);
      assert.equal(response.statusCode, 200, response.body);
      const { data, next_cursor } = response.json<{ data: Hit[]; next_cursor: string | null }>();
      assert.deepEqual(data.map((hit) => hit.recording_id), [first.id]);
      assert.equal(next_cursor, null);
      const [hit] = data as [Hit];
      assert.match(hit.snippet, new RegExp(`<mark>${word}</mark>`, 'i'));
      assert.ok(hit.end > hit.start && hit.start >= 0, JSON.stringify(hit));
      assert.equal(hit.speaker, 'channel_0', 'a mono call has one speaker, named after its channel');
      // The hit says which call it is in: file, call date and metadata (the agent).
      assert.match(hit.recording.filename, /\.wav$/);
      assert.deepEqual([hit.recording.recorded_at, hit.recording.metadata], ['2026-10-01T09:00:00.000Z', { agent: 'alice' }]);
      const october = (await search(`q=${encodeURIComponent(word)}&recorded_before=2026-10-15T00:00:00Z`)).json<{ data: Hit[] }>().data;
      assert.deepEqual(october.map((h) => h.recording_id), [first.id]);
      assert.deepEqual((await search(`q=${encodeURIComponent(word)}&recorded_after=2026-10-15T00:00:00Z`)).json<{ data: Hit[] }>().data, []);
    });

    test('an exact phrase, a metadata filter and paging', async () => {
      const [first, second] = calls as [{ id: string; text: string }, { id: string; text: string }];
      const pair = first.text.toLowerCase().split(/\s+/).filter(Boolean).slice(-3, -1).join(' ');
      const phrase = await search(`q=${encodeURIComponent(`"${pair}"`)}`);
      assert.ok(phrase.json<{ data: Hit[] }>().data.some((hit) => hit.recording_id === first.id), `"${pair}" in "${first.text}"`);

      // A word both calls share, if recognition gave one; else one query per call with "or".
      const shared = words(first.text).find((w) => words(second.text).includes(w));
      const q = encodeURIComponent(shared ?? `${words(first.text)[0]} or ${words(second.text)[0]}`);
      const both = (await search(`q=${q}`)).json<{ data: Hit[] }>().data;
      assert.deepEqual(both.map((hit) => hit.recording_id), [second.id, first.id], 'newest first');
      const bob = (await search(`q=${q}&metadata.agent=bob`)).json<{ data: Hit[] }>().data;
      assert.deepEqual(bob.map((hit) => hit.recording_id), [second.id]);
      const page1 = (await search(`q=${q}&limit=1`)).json<{ data: Hit[]; next_cursor: string }>();
      assert.deepEqual(page1.data.map((hit) => hit.recording_id), [second.id]);
      const page2 = (await search(`q=${q}&limit=1&cursor=${page1.next_cursor}`)).json<{ data: Hit[]; next_cursor: string | null }>();
      assert.deepEqual(page2.data.map((hit) => hit.recording_id), [first.id]);
      assert.equal(page2.next_cursor, null);
      assert.deepEqual((await search(`q=${q}&speaker=agent`)).json<{ data: Hit[] }>().data, [], 'no segment of a mono call is the agent\'s');
      assert.equal((await search(`q=${q}&speaker=channel_0`)).json<{ data: Hit[] }>().data.length, 2);
    });

    test('bad queries are 400; a key without transcripts:read is 403', async () => {
      assertProblem(await search(''), 400, 'validation_failed');
      assertProblem(await search('q=%20%20'), 400, 'validation_failed');
      assertProblem(await search('q=refund&cursor=nope'), 400, 'validation_failed');
      const created = await hark.request({ method: 'POST', url: `${P}/api-keys`, key: account.key, payload: { name: 'no transcripts', scopes: ['recordings:read'] } });
      assertProblem(await search('q=refund', created.json<{ key: string }>().key), 403, 'insufficient_scope');
    });
  });
}
