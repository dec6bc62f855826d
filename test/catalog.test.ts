// What the web interface needs beside the run API: the engines and models of this server, the
// metadata fields of a workspace with their values, and a recording's audio with HTTP Range.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { addModel } from '../src/engines/models.ts';
import { parseRange } from '../src/features/recordings/recording-audio.ts';
import { upload, waitForRecording } from './helpers/api.ts';
import { durationOf, speech } from './helpers/audio.ts';
import { assertProblem, backends, registerAccount, startHark, storedKeys, type Account, type Hark } from './helpers/harness.ts';

test('Range headers: single ranges, suffixes, open ends; several ranges or other units serve the whole file', () => {
  assert.deepEqual(parseRange('bytes=0-99', 1000), { start: 0, end: 99 });
  assert.deepEqual(parseRange('bytes=900-', 1000), { start: 900, end: 999 });
  assert.deepEqual(parseRange('bytes=-100', 1000), { start: 900, end: 999 });
  assert.deepEqual(parseRange('bytes=990-5000', 1000), { start: 990, end: 999 });
  assert.deepEqual(parseRange('bytes=-5000', 1000), { start: 0, end: 999 });
  assert.equal(parseRange(undefined, 1000), null);
  assert.equal(parseRange('bytes=0-1,5-6', 1000), null);
  assert.equal(parseRange('items=0-1', 1000), null);
  assert.throws(() => parseRange('bytes=1000-', 1000), /1000 bytes/);
  assert.throws(() => parseRange('bytes=5-2', 1000));
  assert.throws(() => parseRange('bytes=-0', 1000));
});

for (const backend of await backends({ s3: true })) {
  describe(`catalog and audio (${backend})`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
    });
    after(() => hark.destroy());

    test('engines list what this server has, with registered model files', async () => {
      await addModel(hark.config, 'tiny-random', new URL('./fixtures/ggml-random-tiny.en.bin', import.meta.url).pathname);
      const engines = (await hark.request({ method: 'GET', url: `${P}/engines`, key: account.key })).json<{ data: { kind: string; engine: string; models: string[]; any_model: boolean; languages: string[] | null }[] }>().data;
      const find = (kind: string, engine: string) => engines.find((e) => e.kind === kind && e.engine === engine);
      assert.deepEqual(find('transcription', 'pocketsphinx')?.languages, ['en']);
      assert.deepEqual(find('transcription', 'whisper.cpp')?.models, ['tiny-random']);
      assert.equal(find('transcription', 'openai')?.any_model, true);
      assert.deepEqual(find('analysis', 'llama.cpp')?.models, []);
      assert.equal(find('analysis', 'basic')?.models.length, 1);
    });

    test('metadata fields come with their frequent values; another workspace\'s are not shown', async () => {
      for (const metadata of [{ agent: 'ana', team: 'north', score: 4 }, { agent: 'ana', team: 'south' }, { agent: 'ben', vip: true }]) {
        assert.equal((await upload(hark, account, speech('Hello.'), { fields: { metadata: JSON.stringify(metadata) } })).statusCode, 202);
      }
      const other = await registerAccount(hark);
      await upload(hark, other, speech('Hello.'), { fields: { metadata: JSON.stringify({ secret_field: 'x' }) } });
      const fields = (await hark.request({ method: 'GET', url: `${P}/metadata-fields`, key: account.key })).json<{ data: { field: string; recordings: number; values: { value: unknown; recordings: number }[] }[] }>().data;
      assert.deepEqual(fields.map((f) => [f.field, f.recordings]), [['agent', 3], ['team', 2], ['score', 1], ['vip', 1]]);
      assert.deepEqual(fields[0]!.values, [{ value: 'ana', recordings: 2 }, { value: 'ben', recordings: 1 }]);
      assert.deepEqual(fields.find((f) => f.field === 'vip')!.values, [{ value: true, recordings: 1 }]);
    });

    test('audio: the original and the prepared WAV, whole or by range; 404 elsewhere, 409 once expired', async () => {
      const file = speech('Please call me back tomorrow.');
      const id = (await upload(hark, account, file)).json<{ id: string }>().id;
      await waitForRecording(hark, account, id, ['completed']);
      const original = fs.readFileSync(file);
      const whole = await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key });
      assert.equal(whole.statusCode, 200);
      assert.equal(whole.headers['accept-ranges'], 'bytes');
      assert.equal(whole.headers['content-type'], 'audio/wav');
      assert.ok(whole.rawPayload.equals(original));

      const part = await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key, headers: { range: 'bytes=100-199' } });
      assert.equal(part.statusCode, 206);
      assert.equal(part.headers['content-range'], `bytes 100-199/${original.length}`);
      assert.ok(part.rawPayload.equals(original.subarray(100, 200)));

      const prepared = await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio?variant=prepared&download=true`, key: account.key, headers: { range: 'bytes=0-3' } });
      assert.equal(prepared.statusCode, 206);
      assert.equal(prepared.body, 'RIFF');
      assert.match(String(prepared.headers['content-disposition']), /^attachment; filename\*=UTF-8''/);

      // The waveform: one level per slice, loudest 1, quiet at the start and end (flite's silence),
      // kept beside the audio once computed; gone with it.
      const waveform = await hark.request({ method: 'GET', url: `${P}/recordings/${id}/waveform`, key: account.key });
      assert.equal(waveform.statusCode, 200, waveform.body);
      const { peaks, duration_seconds } = waveform.json<{ peaks: number[]; duration_seconds: number }>();
      assert.equal(peaks.length, 1600);
      assert.equal(Math.max(...peaks), 1);
      assert.ok(Math.abs(duration_seconds - durationOf(file)) < 0.1, `${duration_seconds} s`);
      assert.ok(peaks[0]! < 0.05 && peaks.at(-1)! < 0.05, 'silence at both ends');
      assert.deepEqual(await storedKeys(hark, `recordings/${account.workspaceId}/${id}`).then((keys) => keys.filter((k) => k.includes('waveform'))), [`recordings/${account.workspaceId}/${id}/waveform-prepared.json`]);
      assert.deepEqual((await hark.request({ method: 'GET', url: `${P}/recordings/${id}/waveform`, key: account.key })).json(), waveform.json(), 'read back as computed');

      const beyond = assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key, headers: { range: `bytes=${original.length}-` } }), 416, 'range_not_satisfiable');
      assert.ok(beyond);
      const other = await registerAccount(hark);
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${other.workspaceId}/recordings/${id}/audio`, key: other.key }), 404, 'not_found');

      await hark.runtime.ctx.db.updateTable('recordings').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
      const { expireAudio } = await import('../src/features/recordings/expire-audio.ts');
      await expireAudio(hark.runtime.ctx);
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key }), 409, 'audio_expired');
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/${id}/waveform`, key: account.key }), 409, 'audio_expired');
    });
  });
}
