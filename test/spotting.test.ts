// Phrases spotted in the audio: pocketsphinx's keyword spotting over each channel, besides the
// transcript; phrase rules answered from what was spotted when the transcript's words lack it
// (evidence source "audio"), within the question's speaker and time window, until a person
// corrects the words. Over HTTP through the shipped TypeScript client.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stereoCall } from './helpers/audio.ts';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { oneBackend, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';
import { answerByPhrases } from '../src/core/transcripts/phrase-rules.ts';

test('a phrase rule takes a spotted phrase when the words lack it, in the question\'s speaker and window only', () => {
  const question = { id: 'notice', text: 'Was the call announced as recorded?', type: 'boolean' as const, phrases: ['This call may be recorded'], speaker: 'agent', within_seconds: 30 };
  const words = 'thank you for calling'.split(' ').map((word, i) => ({ word, start: i * 0.3, end: i * 0.3 + 0.25, confidence: 1, channel: 0, speaker: 'agent' }));
  const parts = { text: 'thank you for calling', segments: [{ start: 0, end: 1.2, text: 'thank you for calling', channel: 0, speaker: 'agent' }], words };
  const spot = { phrase: 'this call may be recorded', start: 1.7, end: 3.1, speaker: 'agent', confidence: 0.84 };
  const heard = answerByPhrases(question, { ...parts, spotted: [spot] });
  assert.deepEqual({ answer: heard.answer, confidence: heard.confidence, evidence: heard.evidence }, { answer: true, confidence: 0.84, evidence: [{ text: 'this call may be recorded', start: 1.7, end: 3.1, source: 'audio' }] });
  assert.equal(answerByPhrases(question, { ...parts, spotted: [{ ...spot, speaker: 'customer' }] }).answer, false, 'another speaker');
  assert.equal(answerByPhrases(question, { ...parts, spotted: [{ ...spot, start: 40, end: 41 }] }).answer, false, 'after the window');
  assert.equal(answerByPhrases(question, parts).answer, false, 'nothing spotted');
  const inWords = answerByPhrases({ ...question, phrases: ['thank you for calling'] }, { ...parts, spotted: [spot] });
  assert.equal(inWords.evidence[0]?.source, 'transcript');
  // One word alone is spotted inside others ("refund" in "recorded for"): its yes is uncertain.
  const word = answerByPhrases({ ...question, phrases: ['refund'] }, { ...parts, spotted: [{ ...spot, phrase: 'refund', confidence: 0.83 }] });
  assert.deepEqual([word.answer, word.confidence], [true, 0.55]);
});

// The store plays no part in what this suite proves (audio, engines, HTTP shapes): one backend.
for (const backend of await oneBackend()) {
  describe(`phrases spotted in the audio on ${backend}`, () => {
    let hark: Hark;
    let client: HarkClient;
    before(async () => {
      hark = await startHark({ backend });
      client = hark.client((await registerAccount(hark)).key);
    });
    after(() => hark.destroy());

    test('the transcript carries what was spotted, by speaker; a phrase rule answers from it where the words lack it, until a person corrects the words', async () => {
      const scenario = await client.createTranscriptionScenario({ body: { name: 'Spotting', options: { speaker_labels: { 0: 'agent', 1: 'customer' }, spot: ['This call may be recorded', 'Qualtrics'] } } });
      const file = stereoCall(
        [
          { channel: 0, at: 0.3, text: 'Thank you for calling. This call may be recorded for quality and training purposes.' },
          { channel: 1, at: 7, text: 'We use Qualtrics for the survey.' },
        ],
        12,
      );
      const transcript = await client.transcribe(file, { scenarioId: scenario.id });
      const id = transcript.recording_id;
      const runId = transcript.transcription_run_id;
      const found = transcript.spotted.map((s) => `${s.speaker}: ${s.phrase}`);
      // Each phrase on its own speaker's channel only: no false alarm on the other.
      assert.deepEqual([...new Set(found)].sort(), ['agent: this call may be recorded', 'customer: qualtrics'], found.join(', '));
      const notice = transcript.spotted.find((s) => s.phrase === 'this call may be recorded')!;
      assert.ok(notice.start >= 1 && notice.end <= 6, JSON.stringify(notice));
      // The recogniser does not write the product name (it hears "quell checks"): spotting does.
      assert.doesNotMatch(transcript.text, /qualtrics/i, 'the premise: the words lack it');

      const analysis = await client.createAnalysisScenario({
        body: {
          name: 'Notice',
          questions: [
            { id: 'notice', text: 'Did the agent say the call is recorded?', type: 'boolean', speaker: 'agent', phrases: ['this call may be recorded'] },
            { id: 'shop', text: 'Did the customer name the survey tool?', type: 'boolean', speaker: 'customer', phrases: ['qualtrics'] },
            { id: 'shop_agent', text: 'Did the agent name the survey tool?', type: 'boolean', speaker: 'agent', phrases: ['qualtrics'] },
          ],
        },
      });
      const analyse = async () => {
        const analysed = await client.createAnalysisRun({ path: { recording_id: id }, body: { analysis_scenario_id: analysis.id } });
        const { answers } = await client.waitForAnalysis(analysed.id, { timeoutMs: 60_000 });
        return Object.fromEntries(answers.map((a) => [a.question_id, `${String(a.answer)} ${a.evidence[0]?.source ?? ''}`.trim()]));
      };
      const first = await analyse();
      assert.match(first.notice!, /^true (transcript|audio)$/);
      assert.equal(first.shop, 'true audio');
      assert.equal(first.shop_agent, 'false', 'spotted on the customer\'s channel only');

      // A person corrects the customer's words: what they wrote wins over what spotting heard.
      const corrected = await client.correctTranscript({
        path: { run_id: runId },
        body: { version: transcript.version, segments: transcript.segments.flatMap((s, index) => (s.speaker === 'customer' ? [{ index, text: 'We use a form for the survey.' }] : [])) },
      });
      assert.deepEqual(corrected.spotted, transcript.spotted, 'the audio did not change');
      assert.equal((await analyse()).shop, 'false');
    });

    test('phrases to spot are checked: letters, length, and only pocketsphinx spots', async () => {
      const create = (body: object) => client.createTranscriptionScenario({ body: { name: 'Bad', ...body } });
      for (const [spot, said] of [[['refund', '42'], /options\/spot\/1/], [['refund', 'plan 5'], /digits/], [['no'], /too short/], [['東京 tower'], /options\/spot\/0/]] as const) {
        const bad = await rejectsWith(create({ options: { spot } }), 400, 'validation_failed');
        assert.match(bad.detail, said);
      }
      await rejectsWith(create({ options: { spot: Array.from({ length: 51 }, (_, i) => `phrase ${i}`) } }), 400, 'validation_failed');
      await rejectsWith(create({ engine: 'openai', options: { spot: ['refund'], base_url: 'http://127.0.0.1:9/v1' } }), 400, 'validation_failed');
    });
  });
}
