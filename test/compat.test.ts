// The alternative upload form (/v1/files) and the OpenAI-compatible endpoint, driven by the
// official openai client.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { multipart, speech } from './helpers/audio.ts';
import { assertProblem, oneBackend, eventually, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

const CALL = 'Hello, thank you for calling. I would like to book an appointment for next Monday.';

// The store plays no part in what this suite proves (audio, engines, HTTP shapes): one backend.
for (const backend of await oneBackend()) {
  describe(`compatibility routes on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let base: string;
    const wav = speech(CALL);
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      base = await hark.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => hark.destroy());

    test('/v1/files round trip with metadata, transcript and analysis (long poll)', async () => {
      // Every field is metadata, unchanged: names the recordings API reads (retention_days, recorded_at) too.
      const body = multipart({ agent: 'sam', queue: 'billing', priority: '2', retention_days: 'gold', recorded_at: 'yesterday' }, { content: fs.readFileSync(wav), filename: 'call.wav', contentType: 'audio/wav' });
      const created = await hark.request({ method: 'POST', url: '/v1/files', key: account.key, ...body });
      assert.equal(created.statusCode, 202, created.body);
      const file = created.json<{ file_id: string; status: string; metadata: Record<string, string> }>();
      assert.match(file.file_id, /^fl-/);
      assert.deepEqual(file.metadata, { agent: 'sam', queue: 'billing', priority: '2', retention_days: 'gold', recorded_at: 'yesterday' });
      const early = (await hark.request({ method: 'GET', url: `/v1/files/${file.file_id}`, key: account.key })).json<{ analysis: unknown }>();
      assert.equal(early.analysis, null);

      let view: { status: string; metadata: Record<string, string>; transcript: { text: string } | null; analysis: { summary: string; answers: { question: string; answer: unknown }[]; tokens_used: number } | null } | null = null;
      for (let i = 0; i < 6 && view?.status !== 'completed'; i++) {
        view = (await hark.request({ method: 'GET', url: `/v1/files/${file.file_id}?wait=60`, key: account.key })).json();
      }
      assert.equal(view?.status, 'completed');
      assert.deepEqual(view?.metadata, file.metadata);
      assert.ok(view?.transcript?.text);
      assert.ok(view?.analysis);
      assert.equal(typeof view?.analysis?.summary, 'string');
      assert.equal(typeof view?.analysis?.answers[0]?.answer, 'boolean');
      assert.equal(typeof view?.analysis?.answers[1]?.answer, 'string');
      assert.equal(view?.analysis?.tokens_used, 0);
      const card = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/recordings/${file.file_id}`, key: account.key });
      assert.equal(card.json<{ metadata: Record<string, string> }>().metadata.agent, 'sam');
      assertProblem(await hark.request({ method: 'GET', url: '/v1/files/fl-00000000-0000-0000-0000-000000000000', key: account.key }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'GET', url: `/v1/files/${file.file_id}` }), 401, 'unauthorized');
    });

    test('the openai client receives text, verbose_json with words, and srt', async () => {
      const client = new OpenAI({ apiKey: account.key, baseURL: `${base}/v1`, maxRetries: 0, timeout: 300_000 });
      // As in a workspace that transcribes every upload by itself (the default outside tests).
      const scenarios = `/api/v1/workspaces/${account.workspaceId}/transcription-scenarios`;
      const automatic = (await hark.request({ method: 'GET', url: scenarios, key: account.key })).json<{ data: { id: string }[] }>().data[0]!.id;
      await hark.request({ method: 'PATCH', url: `${scenarios}/${automatic}`, key: account.key, payload: { auto: true } });
      const text = await client.audio.transcriptions.create({ file: fs.createReadStream(wav), model: 'whisper-1', response_format: 'text' });
      assert.equal(typeof text, 'string');
      assert.match(String(text).toLowerCase(), /thank|calling|appointment|monday/);

      const verbose = await client.audio.transcriptions.create({ file: fs.createReadStream(wav), model: 'pocketsphinx/en-us', response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] });
      assert.equal(verbose.language, 'english');
      assert.ok(verbose.words && verbose.words.length > 3);
      assert.ok(verbose.words.every((w) => w.end >= w.start && w.start >= 0));
      // As OpenAI gives them: the text's own words, so they spell it ("2:30" where the text has it, not "two thirty").
      const spelled = verbose.words.map((w) => w.word).join(' ');
      assert.equal(spelled.replace(/[^\p{L}\p{N}:$%. -]/gu, ''), verbose.text.replace(/[.,?!;]+(\s|$)/g, '$1').replace(/[^\p{L}\p{N}:$%. -]/gu, '').trim(), `${spelled} / ${verbose.text}`);
      assert.ok(verbose.segments && verbose.segments.length >= 1);

      const srt = await client.audio.transcriptions.create({ file: fs.createReadStream(wav), model: 'whisper-1', response_format: 'srt' });
      assert.match(String(srt), /^1\n00:00:/);

      const runs = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/transcription-runs`, key: account.key })).json<{ data: unknown[] }>().data;
      assert.ok(runs.length >= 3, 'synchronous transcriptions are ordinary runs');
      // One run each: the workspace's automatic scenario does not transcribe them a second time.
      const P = `/api/v1/workspaces/${account.workspaceId}`;
      const synchronous = (await hark.request({ method: 'GET', url: `${P}/recordings?metadata.source=openai-compatible`, key: account.key })).json<{ data: { id: string }[] }>().data;
      assert.ok(synchronous.length >= 3);
      for (const { id } of synchronous) {
        const own = (await hark.request({ method: 'GET', url: `${P}/transcription-runs?recording_id=${id}`, key: account.key })).json<{ data: unknown[] }>().data;
        assert.equal(own.length, 1, `one run for ${id}`);
      }
      await hark.request({ method: 'PATCH', url: `${scenarios}/${automatic}`, key: account.key, payload: { auto: false } });

      await assert.rejects(
        client.audio.transcriptions.create({ file: fs.createReadStream(wav), model: 'nonsense-engine/x' }),
        (error: unknown) => error instanceof OpenAI.BadRequestError && /unknown engine/.test(error.message),
      );
      // A prompt longer than a scenario's is refused at once, naming it (it used to leave its run queued and the request waiting).
      await assert.rejects(
        client.audio.transcriptions.create({ file: fs.createReadStream(wav), model: 'whisper-1', prompt: 'x'.repeat(2001) }),
        (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'prompt' && /2000/.test(error.message),
      );
      const stranger = new OpenAI({ apiKey: 'hark_wrong', baseURL: `${base}/v1`, maxRetries: 0 });
      await assert.rejects(stranger.audio.transcriptions.create({ file: fs.createReadStream(wav), model: 'whisper-1' }), (error: unknown) => error instanceof OpenAI.AuthenticationError);
    });

    test('a client that goes away before its transcript is ready cancels its run', async () => {
      const client = new OpenAI({ apiKey: account.key, baseURL: `${base}/v1`, maxRetries: 0, timeout: 300_000 });
      const P = `/api/v1/workspaces/${account.workspaceId}`;
      const runsBefore = new Set((await hark.request({ method: 'GET', url: `${P}/transcription-runs?limit=100`, key: account.key })).json<{ data: { id: string }[] }>().data.map((r) => r.id));
      const abort = new AbortController();
      const long = speech(Array.from({ length: 12 }, () => CALL).join(' '));
      const answer = client.audio.transcriptions.create({ file: fs.createReadStream(long), model: 'whisper-1' }, { signal: abort.signal }).catch((error: unknown) => error);
      // An answer before the run exists is the failure to report (seen once in CI: no run within a minute).
      let settled: unknown = null;
      void answer.then((value) => (settled = value));
      const started = await eventually(async () => {
        if (settled !== null) throw new Error(`the request ended before its run existed: ${String(settled)}`);
        return (await hark.request({ method: 'GET', url: `${P}/transcription-runs?limit=100`, key: account.key })).json<{ data: { id: string }[] }>().data.find((r) => !runsBefore.has(r.id));
      }, 120_000, 'the run');
      abort.abort();
      assert.ok((await answer) instanceof Error, 'the client stopped waiting');
      await eventually(async () => (await hark.request({ method: 'GET', url: `${P}/transcription-runs/${started.id}`, key: account.key })).json<{ status: string }>().status === 'cancelled', 30_000, 'the cancelled run');
    });
  });
}
