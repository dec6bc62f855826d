// When the sentence encoder cannot be loaded (a broken install, no memory for its WebAssembly),
// Hark keeps working without it: a transcript is stored with the call as one chapter, a question's
// example still answers yes but marked uncertain, the failure is told once (the process logs it)
// and the encoder is tried again only after a pause, not on every text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { embedSentences, ENCODER_RETRY_MS, onEncoderFailure, replaceEncoderLoader } from '../src/engines/text/sentence-encoder.ts';
import { stereoCall } from './helpers/audio.ts';
import { eventually, registerAccount, startHark, type Hark } from './helpers/harness.ts';

let loads = 0;
const failing = async (): Promise<never> => {
  loads += 1;
  throw new Error('out of memory for the WebAssembly heap');
};

test('a failed load is told once, and refused at once until the pause is over', async () => {
  replaceEncoderLoader(failing);
  loads = 0;
  const told: Error[] = [];
  onEncoderFailure((error) => told.push(error));
  await assert.rejects(embedSentences(['hello']), /could not be loaded .*out of memory/);
  await assert.rejects(embedSentences(['hello again']), /could not be loaded/);
  assert.equal(loads, 1, 'not loaded again before the pause');
  assert.equal(told.length, 1);
  assert.ok(ENCODER_RETRY_MS >= 10_000);
  assert.deepEqual(await embedSentences([]), [], 'nothing to embed needs no encoder');
  onEncoderFailure(null);
});

describe('without the sentence encoder, over HTTP', () => {
  let hark: Hark;
  let client: HarkClient;
  before(async () => {
    hark = await startHark({ backend: 'pglite' });
    client = hark.client((await registerAccount(hark)).key);
    replaceEncoderLoader(failing);
  });
  after(() => hark.destroy());

  test('a call that changes subject is transcribed as one chapter; an example answers yes, uncertain', async () => {
    const internet = ['My internet connection keeps dropping every evening.', 'Did you restart your internet box?', 'Yes, I restarted it twice and the internet is still down.', 'The internet light is still red.', 'I will send an engineer to fix your internet today.', 'Thank you, I need the internet for my work.'];
    const billing = ['I also want to change my billing address.', 'Sure, what is the new billing address?', 'It is twelve High Street.', 'Your billing address is updated.', 'Will my next invoice go there?', 'Yes, the next invoice goes to the new address.'];
    const said = [...internet, ...billing].map((text, i) => ({ channel: (i % 2) as 0 | 1, at: 0.3 + i * 3.4, text }));
    const call = await client.transcribe(stereoCall(said, 42), {});
    assert.equal(call.chapters.length, 1, 'the whole call, not a failed run');
    assert.ok(call.segments.length > 6);

    const scenario = await client.createAnalysisScenario({ body: { name: 'Engineer', summary: false, questions: [{ id: 'engineer', text: 'Was a visit arranged?', type: 'boolean', examples: ['I will send an engineer to fix your internet today'] }] } });
    const run = await client.createAnalysisRun({ path: { recording_id: call.recording_id }, body: { analysis_scenario_id: scenario.id } });
    const result = await eventually(async () => {
      const list = (await client.listAnalysisResults({ query: { recording_id: call.recording_id } })).data.filter((r) => r.analysis_run_id === run.id);
      return list[0] ?? null;
    }, 60_000, 'the analysis result');
    const answer = result.answers[0]!;
    assert.equal(answer.answer, true);
    assert.ok(answer.confidence < 0.6, `uncertain without the likeness: ${answer.confidence}`);
  });
});
