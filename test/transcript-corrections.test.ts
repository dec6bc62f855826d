// Correcting a transcript over HTTP (through the shipped TypeScript client), on a real recognised call: versions kept, the corrected one
// read by the run, the recording, search and analysis (automatic analysis runs on it), redaction
// applied to what a reviewer types, stale corrections refused, bad ones named.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { speech } from './helpers/audio.ts';
import { assertProblem, backends, eventually, registerAccount, rejectsWith, startHark, type Account, type Hark } from './helpers/harness.ts';

for (const backend of await backends()) {
  describe(`transcript corrections on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let client: HarkClient;
    const correct = (runId: string, body: object) => client.correctTranscript({ path: { run_id: runId }, body: body as { version?: number } });
    const transcriptOf = (runId: string, version?: number) => client.getRunTranscript({ path: { run_id: runId }, query: version ? { version } : {} });

    /** A recording transcribed by the workspace's default scenario (which redacts card numbers). */
    async function transcribed(text: string) {
      const { id: recordingId } = await client.upload(speech(text));
      await client.waitForRecording(recordingId);
      const runId = (await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: {} })).id;
      return { recordingId, runId, transcript: await client.waitForTranscript(runId) };
    }

    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
    });
    after(() => hark.destroy());

    test('a corrected word and segment make version 2; version 1 is kept; the run, the recording and search read version 2', async () => {
      const { recordingId, runId, transcript } = await transcribed('Hello, my parcel never arrived and I would like my money back.');
      assert.equal(transcript.version, 1);
      assert.equal(transcript.corrected_by, null);
      const last = transcript.words.length - 1;
      const v2 = await correct(runId, {
        version: 1,
        words: [{ index: last, word: 'zanzibar.' }],
        ...(transcript.segments.length > 1 ? { segments: [{ index: 0, text: 'Hello there, my parcel never arrived.' }] } : {}),
      });
      assert.deepEqual([v2.version, v2.previous_transcript_id], [2, transcript.id]);
      const keys = (await client.listApiKeys()).data;
      assert.deepEqual([v2.corrected_by], keys.map((k) => k.id), 'made with the only key');
      assert.notEqual(v2.id, transcript.id);
      const fixedWord = v2.words.find((w) => w.punctuated_word === 'zanzibar.')!;
      assert.deepEqual([fixedWord.word, fixedWord.start, fixedWord.end], ['zanzibar', transcript.words[last]!.start, transcript.words[last]!.end], 'the word keeps its times');
      assert.match(v2.text, /zanzibar\./);

      assert.equal((await transcriptOf(runId)).id, v2.id);
      assert.equal((await client.getRecordingTranscript({ path: { recording_id: recordingId } })).id, v2.id);
      assert.equal((await transcriptOf(runId, 1)).text, transcript.text);
      await rejectsWith(transcriptOf(runId, 3), 404, 'not_found');
      const versions = (await client.listTranscriptVersions({ path: { run_id: runId } })).data;
      assert.deepEqual(versions.map((v) => [v.id, v.version, v.current]), [
        [transcript.id, 1, false],
        [v2.id, 2, true],
      ]);
      const txt = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/transcription-runs/${runId}/transcript?format=txt`, key: account.key });
      assert.match(txt.body, /zanzibar/, 'exports read the correction');

      // Search finds the corrected word in the current version, and the replaced one nowhere.
      const hits = async (q: string) => (await client.searchTranscripts({ query: { q } })).data.map((h) => h.transcript_id);
      assert.deepEqual(await hits('zanzibar'), [v2.id]);
      const replaced = transcript.words[last]!.word.replace(/[^a-z]/gi, '');
      if (replaced.length > 3 && !v2.words.some((w) => w.word === replaced)) assert.deepEqual(await hits(replaced), []);

      // The list tells the calls corrected by hand (a transcription run would replace their transcript).
      const listed = async (corrected: 'true' | 'false') => (await client.listRecordings({ query: { corrected } })).data.map((r) => r.id);
      assert.ok((await listed('true')).includes(recordingId));
      assert.ok(!(await listed('false')).includes(recordingId));

      // A correction made on version 1 now comes too late.
      await rejectsWith(correct(runId, { version: 1, words: [{ index: 0, word: 'Hi' }] }), 409, 'transcript_changed');
      await rejectsWith(correct(runId, { version: 999, words: [{ index: 0, word: 'Hi' }] }), 400, 'validation_failed');
    });

    test('analysis reads the corrected transcript, and the automatic scenario runs on it', async () => {
      const { runId, transcript } = await transcribed('Good morning, I am calling about my broken washing machine.');
      const scenario = await client.createAnalysisScenario({
        body: { name: 'Brand', auto: true, questions: [{ id: 'brand', text: 'Was the brand named?', type: 'boolean', phrases: ['quokka'] }] },
      });
      const v2 = await correct(runId, { words: [{ index: transcript.words.length - 1, word: 'quokka' }] });
      const results = await eventually(
        async () => {
          const { data } = await client.listAnalysisResults({ query: { analysis_scenario_id: scenario.id } });
          return data.length > 0 ? data : null;
        },
        60_000,
        'the automatic analysis of the correction',
      );
      assert.deepEqual(results.map((r) => [r.transcript_id, r.answers[0]!.answer]), [[v2.id, true]]);
    });

    test("a card number typed into a correction is redacted by the run's scenario", async () => {
      const sct = (await client.listTranscriptionScenarios()).data[0]!;
      assert.deepEqual(sct.options.redact, ['credit_card'], 'new workspaces redact card numbers');
      const { runId } = await transcribed('Please charge it to my card.');
      const v2 = await correct(runId, { segments: [{ index: 0, text: 'Please charge it to my card 4111 1111 1111 1111.' }] });
      assert.doesNotMatch(JSON.stringify(v2), /4111/);
      assert.match(v2.text, /\[CREDIT_CARD\]/);
      assert.ok(v2.words.some((w) => w.word === '[CREDIT_CARD]' && w.punctuated_word === '[CREDIT_CARD].'), 'the written word is redacted too, keeping the full stop it ended the sentence with');
    });

    test('corrections that cannot apply are 400 naming the field; a run without a transcript is 409', async () => {
      const { runId, transcript } = await transcribed('Thank you for your patience.');
      await rejectsWith(correct(runId, {}), 400, 'validation_failed');
      await rejectsWith(correct(runId, { words: [{ index: transcript.words.length, word: 'x' }] }), 400, 'validation_failed');
      await rejectsWith(correct(runId, { words: [{ index: 0, word: 'two words' }] }), 400, 'validation_failed');
      await rejectsWith(correct(runId, { segments: [{ index: 0, text: 'x' }], extra: 1 }), 400, 'validation_failed');
      await rejectsWith(correct('trn-00000000-0000-4000-8000-000000000000', { words: [{ index: 0, word: 'x' }] }), 404, 'not_found');
      assert.equal((await client.listTranscriptVersions({ path: { run_id: runId } })).data.length, 1, 'nothing half-made');
      const { id: recordingId } = await client.upload(speech('Hello.'));
      await client.waitForRecording(recordingId);
      const queued = (await client.createTranscriptionRun({ path: { recording_id: recordingId }, body: {} })).id;
      // Sent by hand: either answer is right, depending on whether the run finished first.
      const early = await hark.request({ method: 'PATCH', url: `/api/v1/workspaces/${account.workspaceId}/transcription-runs/${queued}/transcript`, key: account.key, payload: { words: [{ index: 0, word: 'x' }] } });
      if (early.statusCode !== 200) assertProblem(early, 409, 'run_not_completed');
    });
  });
}
