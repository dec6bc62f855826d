// Correcting a transcript over HTTP, on a real recognised call: versions kept, the corrected one
// read by the run, the recording, search and analysis (automatic analysis runs on it), redaction
// applied to what a reviewer types, stale corrections refused, bad ones named.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { upload, waitForRecording } from './helpers/api.ts';
import { speech } from './helpers/audio.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

interface Word {
  start: number;
  end: number;
  word: string;
  punctuated_word?: string;
}
interface Transcript {
  id: string;
  version: number;
  previous_transcript_id: string | null;
  corrected_by: string | null;
  text: string;
  segments: { start: number; end: number; text: string }[];
  words: Word[];
}

for (const backend of await backends()) {
  describe(`transcript corrections on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    const request = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => hark.request({ method, url: `${P}${url}`, key: account.key, ...(payload ? { payload } : {}) });

    /** A recording transcribed by a scenario that redacts card numbers; its run id. */
    async function transcribed(text: string): Promise<{ recordingId: string; runId: string; transcript: Transcript }> {
      const recordingId = (await upload(hark, account, speech(text))).json<{ id: string }>().id;
      await waitForRecording(hark, account, recordingId, ['completed']);
      const runId = (await request('POST', `/recordings/${recordingId}/transcription-runs`)).json<{ id: string }>().id;
      await eventually(async () => (await request('GET', `/transcription-runs/${runId}`)).json<{ status: string }>().status === 'completed', 90_000, 'the transcription');
      return { recordingId, runId, transcript: (await request('GET', `/transcription-runs/${runId}/transcript`)).json<Transcript>() };
    }

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
    });
    after(() => hark.destroy());

    test('a corrected word and segment make version 2; version 1 is kept; the run, the recording and search read version 2', async () => {
      const { recordingId, runId, transcript } = await transcribed('Hello, my parcel never arrived and I would like my money back.');
      assert.equal(transcript.version, 1);
      assert.equal(transcript.corrected_by, null);
      const last = transcript.words.length - 1;
      const corrected = await request('PATCH', `/transcription-runs/${runId}/transcript`, {
        version: 1,
        words: [{ index: last, word: 'zanzibar.' }],
        segments: transcript.segments.length > 1 ? [{ index: 0, text: 'Hello there, my parcel never arrived.' }] : undefined,
      });
      assert.equal(corrected.statusCode, 200, corrected.body);
      const v2 = corrected.json<Transcript>();
      assert.deepEqual([v2.version, v2.previous_transcript_id], [2, transcript.id]);
      const keys = (await request('GET', '/api-keys')).json<{ data: { id: string }[] }>().data;
      assert.deepEqual([v2.corrected_by], keys.map((k) => k.id), 'made with the only key');
      assert.notEqual(v2.id, transcript.id);
      const fixedWord = v2.words.find((w) => w.punctuated_word === 'zanzibar.')!;
      assert.deepEqual([fixedWord.word, fixedWord.start, fixedWord.end], ['zanzibar', transcript.words[last]!.start, transcript.words[last]!.end], 'the word keeps its times');
      assert.match(v2.text, /zanzibar\./);

      assert.equal((await request('GET', `/transcription-runs/${runId}/transcript`)).json<Transcript>().id, v2.id);
      assert.equal((await request('GET', `/recordings/${recordingId}/transcript`)).json<Transcript>().id, v2.id);
      assert.equal((await request('GET', `/transcription-runs/${runId}/transcript?version=1`)).json<Transcript>().text, transcript.text);
      assertProblem(await request('GET', `/transcription-runs/${runId}/transcript?version=3`), 404, 'not_found');
      const versions = (await request('GET', `/transcription-runs/${runId}/transcript/versions`)).json<{ data: { id: string; version: number; current: boolean }[] }>().data;
      assert.deepEqual(versions.map((v) => [v.id, v.version, v.current]), [
        [transcript.id, 1, false],
        [v2.id, 2, true],
      ]);
      assert.match((await request('GET', `/transcription-runs/${runId}/transcript?format=txt`)).body, /zanzibar/, 'exports read the correction');

      // Search finds the corrected word in the current version, and the replaced one nowhere.
      const hits = (q: string) => request('GET', `/search?q=${q}`).then((r) => r.json<{ data: { transcript_id: string }[] }>().data.map((h) => h.transcript_id));
      assert.deepEqual(await hits('zanzibar'), [v2.id]);
      const replaced = transcript.words[last]!.word.replace(/[^a-z]/gi, '');
      if (replaced.length > 3 && !v2.words.some((w) => w.word === replaced)) assert.deepEqual(await hits(replaced), []);

      // A correction made on version 1 now comes too late.
      assertProblem(await request('PATCH', `/transcription-runs/${runId}/transcript`, { version: 1, words: [{ index: 0, word: 'Hi' }] }), 409, 'transcript_changed');
    });

    test('analysis reads the corrected transcript, and the automatic scenario runs on it', async () => {
      const { runId, transcript } = await transcribed('Good morning, I am calling about my broken washing machine.');
      const scenario = await request('POST', '/analysis-scenarios', {
        name: 'Brand',
        auto: true,
        questions: [{ id: 'brand', text: 'Was the brand named?', type: 'boolean', phrases: ['quokka'] }],
      });
      assert.equal(scenario.statusCode, 201, scenario.body);
      const scenarioId = scenario.json<{ id: string }>().id;
      const v2 = (await request('PATCH', `/transcription-runs/${runId}/transcript`, { words: [{ index: transcript.words.length - 1, word: 'quokka' }] })).json<Transcript>();
      const results = await eventually(
        async () => {
          const data = (await request('GET', `/analysis-results?analysis_scenario_id=${scenarioId}`)).json<{ data: { transcript_id: string; answers: { answer: unknown }[] }[] }>().data;
          return data.length > 0 ? data : null;
        },
        60_000,
        'the automatic analysis of the correction',
      );
      assert.deepEqual(results.map((r) => [r.transcript_id, r.answers[0]!.answer]), [[v2.id, true]]);
    });

    test("a card number typed into a correction is redacted by the run's scenario", async () => {
      const sct = (await request('GET', '/transcription-scenarios')).json<{ data: { id: string; options: { redact: string[] } }[] }>().data[0]!;
      assert.deepEqual(sct.options.redact, ['credit_card'], 'new workspaces redact card numbers');
      const { runId } = await transcribed('Please charge it to my card.');
      const v2 = (await request('PATCH', `/transcription-runs/${runId}/transcript`, { segments: [{ index: 0, text: 'Please charge it to my card 4111 1111 1111 1111.' }] })).json<Transcript>();
      assert.doesNotMatch(JSON.stringify(v2), /4111/);
      assert.match(v2.text, /\[CREDIT_CARD\]/);
      assert.ok(v2.words.some((w) => w.word === '[CREDIT_CARD]' && w.punctuated_word === '[CREDIT_CARD]'), 'the written word is redacted too');
    });

    test('corrections that cannot apply are 400 naming the field; a run without a transcript is 409', async () => {
      const { runId, transcript } = await transcribed('Thank you for your patience.');
      assertProblem(await request('PATCH', `/transcription-runs/${runId}/transcript`, {}), 400, 'validation_failed');
      assertProblem(await request('PATCH', `/transcription-runs/${runId}/transcript`, { words: [{ index: transcript.words.length, word: 'x' }] }), 400, 'validation_failed');
      assertProblem(await request('PATCH', `/transcription-runs/${runId}/transcript`, { words: [{ index: 0, word: 'two words' }] }), 400, 'validation_failed');
      assertProblem(await request('PATCH', `/transcription-runs/${runId}/transcript`, { segments: [{ index: 0, text: 'x' }], extra: 1 }), 400, 'validation_failed');
      assertProblem(await request('PATCH', `/transcription-runs/trn-00000000-0000-4000-8000-000000000000/transcript`, { words: [{ index: 0, word: 'x' }] }), 404, 'not_found');
      assert.equal((await request('GET', `/transcription-runs/${runId}/transcript/versions`)).json<{ data: unknown[] }>().data.length, 1, 'nothing half-made');
      const recordingId = (await upload(hark, account, speech('Hello.'))).json<{ id: string }>().id;
      await waitForRecording(hark, account, recordingId, ['completed']);
      const queued = (await request('POST', `/recordings/${recordingId}/transcription-runs`)).json<{ id: string }>().id;
      const early = await request('PATCH', `/transcription-runs/${queued}/transcript`, { words: [{ index: 0, word: 'x' }] });
      if (early.statusCode !== 200) assertProblem(early, 409, 'run_not_completed');
    });
  });
}
