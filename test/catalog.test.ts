// What the web interface needs beside the run API: the engines and models of this server, the
// metadata fields of a workspace with their values, and a recording's audio with HTTP Range. The
// public API (uploads, engines, metadata fields, the waveform) is called through the shipped
// TypeScript client; the audio itself (bytes, Range, 206 and 416, headers) is asked for by hand.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { addModel } from '../src/engines/models.ts';
import { parseRange } from '../src/features/recordings/recording-audio.ts';
import { durationOf, speech } from './helpers/audio.ts';
import { assertProblem, backends, registerAccount, rejectsWith, startHark, storedKeys, type Account, type Hark } from './helpers/harness.ts';

/** Uploads as this suite always has: a part typed audio/wav, named as the file. */
const upload = (client: HarkClient, file: string, metadata?: Record<string, unknown>) =>
  client.upload(new Blob([new Uint8Array(fs.readFileSync(file))], { type: 'audio/wav' }), { filename: path.basename(file), metadata });

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
    let client: HarkClient;
    let P: string;
    before(async () => {
      hark = await startHark({ backend });
      account = await registerAccount(hark);
      client = hark.client(account.key);
      P = `/api/v1/workspaces/${account.workspaceId}`;
    });
    after(() => hark.destroy());

    test('engines list what this server has, with registered model files', async () => {
      await addModel(hark.config, 'tiny-random', new URL('./fixtures/ggml-random-tiny.en.bin', import.meta.url).pathname);
      const engines = (await client.listEngines()).data;
      const find = (kind: string, engine: string) => engines.find((e) => e.kind === kind && e.engine === engine);
      assert.deepEqual(find('transcription', 'pocketsphinx')?.languages, ['en']);
      assert.deepEqual(find('transcription', 'whisper.cpp')?.models, ['tiny-random']);
      assert.equal(find('transcription', 'openai')?.any_model, true);
      // Which engines spot phrases in the audio, from their descriptors (the web app shows the field by it).
      assert.deepEqual(engines.filter((e) => e.kind === 'transcription').map((e) => [e.engine, e.spots]), [['pocketsphinx', true], ['whisper.cpp', false], ['openai', false]]);
      assert.deepEqual(find('analysis', 'llama.cpp')?.models, []);
      assert.equal(find('analysis', 'basic')?.models.length, 1);
    });

    test('metadata fields come with their frequent values; another workspace\'s are not shown', async () => {
      for (const metadata of [{ agent: 'ana', team: 'north', score: 4 }, { agent: 'ana', team: 'south' }, { agent: 'ben', vip: true }]) {
        // Accepted with 202: the client takes only a 2xx, and openapi.json gives an upload 202 alone.
        await upload(client, speech('Hello.'), metadata);
      }
      const other = hark.client((await registerAccount(hark)).key);
      await upload(other, speech('Hello.'), { secret_field: 'x' });
      const fields = (await client.listMetadataFields()).data;
      assert.deepEqual(fields.map((f) => [f.field, f.recordings]), [['agent', 3], ['team', 2], ['score', 1], ['vip', 1]]);
      assert.deepEqual(fields[0]!.values, [{ value: 'ana', recordings: 2 }, { value: 'ben', recordings: 1 }]);
      assert.deepEqual(fields.find((f) => f.field === 'vip')!.values, [{ value: true, recordings: 1 }]);
    });

    test('audio: the original and the prepared WAV, whole or by range; 404 elsewhere, 409 once expired', async () => {
      const file = speech('Please call me back tomorrow.');
      const id = (await upload(client, file)).id;
      await client.waitForRecording(id, { timeoutMs: 60_000 });
      const original = fs.readFileSync(file);
      // The audio is raw bytes with its own headers and Range answers: asked for by hand.
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
      // The client takes only a 2xx, and openapi.json gives the waveform 200 alone.
      const waveform = await client.getRecordingWaveform({ path: { recording_id: id } });
      const { peaks, duration_seconds } = waveform;
      assert.equal(peaks.length, 1600);
      assert.equal(Math.max(...peaks), 1);
      assert.ok(Math.abs(duration_seconds - durationOf(file)) < 0.1, `${duration_seconds} s`);
      assert.ok(peaks[0]! < 0.05 && peaks.at(-1)! < 0.05, 'silence at both ends');
      assert.deepEqual(await storedKeys(hark, `recordings/${account.workspaceId}/${id}`).then((keys) => keys.filter((k) => k.includes('waveform'))), [`recordings/${account.workspaceId}/${id}/waveform-prepared.json`]);
      assert.deepEqual(await client.getRecordingWaveform({ path: { recording_id: id } }), waveform, 'read back as computed');

      const beyond = assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key, headers: { range: `bytes=${original.length}-` } }), 416, 'range_not_satisfiable');
      assert.ok(beyond);
      const other = await registerAccount(hark);
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${other.workspaceId}/recordings/${id}/audio`, key: other.key }), 404, 'not_found');

      await hark.runtime.ctx.db.updateTable('recordings').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
      const { expireAudio } = await import('../src/features/recordings/expire-audio.ts');
      await expireAudio(hark.runtime.ctx);
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/${id}/audio`, key: account.key }), 409, 'audio_expired');
      // A problem+json with every field of a problem: openapi.json says so of a 409, and the harness checks every answer against it.
      await rejectsWith(client.getRecordingWaveform({ path: { recording_id: id } }), 409, 'audio_expired');
    });
  });
}
