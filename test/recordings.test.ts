// Recordings over HTTP: upload in every format, bad input, metadata, paging, filters, imports,
// retention, scopes and the trial, on PGlite and PostgreSQL.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { durationOf, encode, mimeOf, multipart, speech, tone } from './helpers/audio.ts';
import { upload, waitForRecording, type Card } from './helpers/api.ts';
import { assertProblem, backends, hasBlob, registerAccount, scratchDir, startHark, storedKeys, type Account, type Hark } from './helpers/harness.ts';
import { serveBytes, startOrigin, status, type Origin } from './helpers/origin.ts';


const sample = speech('Hello, thank you for calling. How can I help you today?');

async function storeIsEmpty(hark: Hark, workspaceId: string): Promise<void> {
  const rows = await hark.runtime.ctx.db.selectFrom('recordings').select('id').where('workspace_id', '=', workspaceId).execute();
  assert.equal(rows.length, 0, 'a recording row was left behind');
  assert.deepEqual(fs.readdirSync(scratchDir(hark)), [], 'a temp file was left behind');
  assert.deepEqual(await storedKeys(hark, `recordings/${workspaceId}`), [], 'a blob was left behind');
}

for (const backend of await backends({ s3: true })) {
  describe(`recordings on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let origin: Origin;
    const wavBytes = fs.readFileSync(sample);
    before(async () => {
      hark = await startHark({ backend, env: { HARK_IMPORT_BACKOFF_SECONDS: '2', HARK_MAX_UPLOAD_BYTES: '3000000' } });
      account = await registerAccount(hark);
      origin = await startOrigin({
        '/call.wav': serveBytes(wavBytes),
        '/flaky.wav': [status(503), serveBytes(wavBytes)],
        '/gone.wav': status(404),
        '/page.html': serveBytes(Buffer.from('<html>not audio</html>'), 'text/html'),
        '/hop': status(302, { location: '/call.wav' }),
      });
    });
    after(async () => {
      await origin.close();
      await hark.destroy();
    });

    test('every accepted format prepares to completed with the right duration', async () => {
      const expected = durationOf(sample);
      const formats = ['wav', 'mp3', 'm4a', 'ogg', 'opus', 'flac'] as const;
      const ids: Record<string, string> = {};
      for (const format of formats) {
        const file = format === 'wav' ? sample : encode(sample, format);
        const response = await upload(hark, account, file, { contentType: mimeOf[format] });
        assert.equal(response.statusCode, 202, response.body);
        const card = response.json<Card>();
        assert.match(card.id, /^fl-/);
        assert.ok(['queued', 'processing', 'completed'].includes(card.status));
        ids[format] = card.id;
      }
      for (const format of formats) {
        const card = await waitForRecording(hark, account, ids[format]!, ['completed', 'failed']);
        assert.equal(card.status, 'completed', `${format}: ${card.error_code}`);
        assert.ok(Math.abs((card.duration_seconds ?? 0) - expected) < 0.15, `${format}: ${card.duration_seconds} vs ${expected}`);
        const prepared = await hark.runtime.ctx.blobs.read(`recordings/${account.workspaceId}/${card.id}/prepared.wav`, { start: 0, end: 3 });
        assert.equal(Buffer.concat(await prepared.toArray()).toString(), 'RIFF');
      }
    });

    test('audio of more than 8 channels is prepared mixed to mono (ffmpeg cannot downmix it by layout)', async () => {
      const ten = path.join(path.dirname(sample), 'ten-channels.wav');
      const labels = Array.from({ length: 10 }, (_, i) => `[a${i}]`).join('');
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', sample, '-filter_complex', `[0:a]asplit=10${labels};${labels}amerge=inputs=10`, '-c:a', 'pcm_s16le', ten]);
      const response = await upload(hark, account, ten);
      assert.equal(response.statusCode, 202, response.body);
      const card = await waitForRecording(hark, account, response.json<Card>().id, ['completed', 'failed']);
      assert.equal(card.status, 'completed', String(card.error_code));
      assert.ok(Math.abs((card.duration_seconds ?? 0) - durationOf(sample)) < 0.15);
    });

    test('a WAV already 16 kHz mono 16-bit is kept as it is; any other is decoded by ffmpeg', async () => {
      const bytes = async (key: string) => Buffer.concat(await (await hark.runtime.ctx.blobs.read(key)).toArray());
      // flite's 16 kHz mono WAV with a LIST chunk before its data: ffmpeg would drop the chunk, so
      // a prepared file equal to the upload shows it was not decoded again.
      const wav = fs.readFileSync(sample);
      const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([12, 0, 0, 0]), Buffer.from('INFOISFTmine')]);
      const tagged = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
      tagged.writeUInt32LE(tagged.length - 8, 4);
      const ready = (await upload(hark, account, tagged, { filename: 'tagged.wav' })).json<Card>();
      const other = (await upload(hark, account, encode(sample, 'flac'))).json<Card>();
      for (const card of [ready, other]) assert.equal((await waitForRecording(hark, account, card.id, ['completed', 'failed'])).status, 'completed');
      const folder = (id: string) => `recordings/${account.workspaceId}/${id}`;
      assert.ok((await bytes(`${folder(ready.id)}/prepared.wav`)).equals(await bytes(`${folder(ready.id)}/original`)), 'used as it is');
      assert.ok(!(await bytes(`${folder(other.id)}/prepared.wav`)).equals(await bytes(`${folder(other.id)}/original`)));
    });

    test('octet-stream is accepted when the content is audio', async () => {
      const response = await upload(hark, account, sample, { contentType: 'application/octet-stream' });
      assert.equal(response.statusCode, 202, response.body);
      assert.equal((await waitForRecording(hark, account, response.json<Card>().id, ['completed', 'failed'])).status, 'completed');
    });

    test('bad input gets its code and leaves nothing behind', async () => {
      const other = await registerAccount(hark);
      assertProblem(await upload(hark, other, Buffer.from('just some text, not audio at all. '.repeat(10)), { contentType: 'audio/wav' }), 415, 'unsupported_media_type');
      assertProblem(await upload(hark, other, sample, { contentType: 'image/png' }), 415, 'unsupported_media_type');
      assertProblem(await upload(hark, other, Buffer.alloc(3_100_000, 1), { contentType: 'audio/wav' }), 413, 'payload_too_large');
      const big = Buffer.concat([wavBytes.subarray(0, 44), Buffer.alloc(3_100_000)]);
      assertProblem(await upload(hark, other, big), 413, 'payload_too_large');
      assertProblem(await upload(hark, other, sample, { fields: { metadata: '[1,2]' } }), 400, 'validation_failed');
      assertProblem(await upload(hark, other, sample, { fields: { metadata: '{"a":' } }), 400, 'validation_failed');
      assertProblem(await upload(hark, other, sample, { fields: { metadata: JSON.stringify({ x: 'y'.repeat(70_000) }) } }), 400, 'validation_failed');
      assertProblem(await upload(hark, other, sample, { fields: { retention_days: '0' } }), 400, 'validation_failed');
      assertProblem(await upload(hark, other, sample, { fields: { retention_days: '3651' } }), 400, 'validation_failed');
      const noFile = multipart({ metadata: '{}' });
      assertProblem(await hark.request({ method: 'POST', url: `/api/v1/workspaces/${other.workspaceId}/recordings`, key: other.key, ...noFile }), 400, 'validation_failed');
      const json = await hark.request({ method: 'POST', url: `/api/v1/workspaces/${other.workspaceId}/recordings`, key: other.key, payload: { file: 'x' } });
      assertProblem(json, 415, 'unsupported_media_type');
      const url = `/api/v1/workspaces/${other.workspaceId}/recordings`;
      const noBoundary = await hark.request({ method: 'POST', url, key: other.key, headers: { 'content-type': 'multipart/form-data' }, payload: 'x' });
      assertProblem(noBoundary, 400, 'validation_failed');
      const whole = multipart({}, { content: wavBytes, filename: 'a.wav', contentType: 'audio/wav' });
      const cut = whole.payload.subarray(0, whole.payload.length - 40);
      assertProblem(await hark.request({ method: 'POST', url, key: other.key, headers: whole.headers, payload: cut }), 400, 'validation_failed');
      const boundary = 'two-files';
      const part = (name: string) => Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: audio/wav\r\n\r\n`), wavBytes, Buffer.from('\r\n')]);
      const twoFiles = Buffer.concat([part('a.wav'), part('b.wav'), Buffer.from(`--${boundary}--\r\n`)]);
      assertProblem(await hark.request({ method: 'POST', url, key: other.key, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: twoFiles }), 400, 'validation_failed');
      const deep = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
      assertProblem(await upload(hark, other, sample, { fields: { metadata: deep } }), 400, 'validation_failed');
      const deepImport = `{"url":"http://example.com/a.wav","metadata":${deep}}`;
      assertProblem(await hark.request({ method: 'POST', url: `${url}/import`, key: other.key, headers: { 'content-type': 'application/json' }, payload: deepImport }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'GET', url: `${url}/fl-${'x'.repeat(300)}`, key: other.key }), 404, 'not_found');
      await storeIsEmpty(hark, other.workspaceId);
    });

    test('undecodable audio ends failed with a code', async () => {
      const garbage = Buffer.concat([Buffer.from('RIFF\x24\x00\x10\x00WAVEfmt ', 'latin1'), Buffer.alloc(20_000, 0x5a)]);
      const truncated = fs.readFileSync(encode(tone(4), 'wav')).subarray(0, 30_000);
      const empty = fs.readFileSync(sample).subarray(0, 44);
      const emptyHeader = Buffer.from(empty);
      emptyHeader.writeUInt32LE(36, 4);
      emptyHeader.writeUInt32LE(0, 40);
      const cases = [
        ['garbage', garbage, 'invalid_audio'],
        ['truncated', truncated, 'truncated_audio'],
        ['empty', Buffer.concat([emptyHeader, Buffer.alloc(32)]), 'empty_audio'],
      ] as const;
      for (const [name, content, code] of cases) {
        const response = await upload(hark, account, content, { filename: `${name}.wav` });
        assert.equal(response.statusCode, 202, `${name}: ${response.body}`);
        const card = await waitForRecording(hark, account, response.json<Card>().id, ['completed', 'failed']);
        assert.equal(card.status, 'failed', name);
        assert.ok(card.error_code, name);
        if (name !== 'empty') assert.equal(card.error_code, code, name);
      }
    });

    test('metadata round-trips unchanged', async () => {
      const metadata = { agent: { name: 'Zoë 李', id: 42 }, score: 3.25, tags: ['a', 'b', null], ok: true, none: null, emoji: '🎧', big: 12345678901 };
      const response = await upload(hark, account, sample, { fields: { metadata: JSON.stringify(metadata), retention_days: '3' } });
      const card = response.json<Card>();
      assert.deepEqual(card.metadata, metadata);
      assert.deepEqual(Object.keys(card.metadata), Object.keys(metadata));
      assert.equal(card.retention_days, 3);
      assert.ok(Math.abs(new Date(card.expires_at).getTime() - Date.now() - 3 * 86_400_000) < 120_000);
      const again = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/recordings/${card.id}`, key: account.key });
      assert.deepEqual(again.json<Card>().metadata, metadata);
    });

    test('cursor paging returns every recording once while new ones arrive, and metadata filters', async () => {
      const ws = await registerAccount(hark);
      const created = new Set<string>();
      for (let i = 0; i < 7; i++) {
        const response = await upload(hark, ws, sample, { fields: { metadata: JSON.stringify({ team: i % 2 ? 'red' : 'blue', n: i, nested: { tier: i < 3 ? 'gold' : 'basic' } }) } });
        created.add(response.json<Card>().id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let extra = 0;
      do {
        const query: string = cursor ? `?limit=3&cursor=${cursor}` : '?limit=3';
        const page = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}/recordings${query}`, key: ws.key })).json<{ data: Card[]; next_cursor: string | null }>();
        seen.push(...page.data.map((r) => r.id));
        cursor = page.next_cursor;
        if (extra < 2) {
          extra += 1;
          await upload(hark, ws, sample);
        }
      } while (cursor);
      assert.equal(new Set(seen).size, seen.length, 'a recording was returned twice');
      for (const id of created) assert.ok(seen.includes(id), `recording ${id} was skipped`);

      const list = async (query: string) =>
        (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}/recordings?${query}`, key: ws.key })).json<{ data: Card[] }>().data;
      assert.equal((await list('metadata.team=red')).length, 3);
      assert.equal((await list('metadata.team=red&metadata.n=3')).length, 1);
      assert.equal((await list('metadata.nested.tier=gold')).length, 3);
      assert.equal((await list('metadata.team=green')).length, 0);
      assert.equal((await list('status=download_failed')).length, 0);
      assert.equal((await list(`created_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).length, 0);
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}/recordings?limit=500`, key: ws.key }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}/recordings?cursor=nonsense`, key: ws.key }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}/recordings?status=bogus`, key: ws.key }), 400, 'validation_failed');
      // A status filter that names no status is the client's mistake, on every list (was `IN ()`, a 500).
      for (const list of ['recordings', 'transcription-runs', 'analysis-runs']) {
        for (const status of [',', '%20', ',%20,']) {
          assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}/${list}?status=${status}`, key: ws.key }), 400, 'validation_failed');
        }
      }
    });

    test('imports: success, redirect, 404, 503 then 200, unsupported, retry with a new URL', async () => {
      const start = async (url: string, extra: Record<string, unknown> = {}) => {
        const response = await hark.request({ method: 'POST', url: `/api/v1/workspaces/${account.workspaceId}/recordings/import`, key: account.key, payload: { url, ...extra } });
        assert.equal(response.statusCode, 202, response.body);
        const card = response.json<Card>();
        assert.equal(card.status, 'download_pending');
        assert.equal(card.source, 'import');
        return card.id;
      };
      const ok = await start(origin.url('/call.wav'), { filename: 'call.wav', metadata: { crm: 'x1' } });
      const hop = await start(origin.url('/hop'));
      const flaky = await start(origin.url('/flaky.wav'));
      const gone = await start(origin.url('/gone.wav'));
      const html = await start(origin.url('/page.html'));

      const waited = await waitForRecording(hark, account, flaky, ['download_retry_wait', 'completed']);
      assert.equal(waited.status, 'download_retry_wait', 'a 503 should wait for a retry');
      assert.equal(waited.error_code, 'http_503');
      const recovered = await waitForRecording(hark, account, flaky, ['completed', 'failed', 'download_failed']);
      assert.equal(recovered.status, 'completed');
      assert.equal(origin.hits('/flaky.wav'), 2);
      const done = await waitForRecording(hark, account, ok, ['completed', 'failed', 'download_failed']);
      assert.equal(done.status, 'completed');
      assert.deepEqual(done.metadata, { crm: 'x1' });
      assert.equal((await waitForRecording(hark, account, hop, ['completed', 'failed', 'download_failed'])).status, 'completed');
      const failed = await waitForRecording(hark, account, gone, ['download_failed', 'completed']);
      assert.equal(failed.error_code, 'http_404');
      assert.equal((await waitForRecording(hark, account, html, ['download_failed', 'completed'])).error_code, 'unsupported_media_type');

      const base = `/api/v1/workspaces/${account.workspaceId}/recordings`;
      assertProblem(await hark.request({ method: 'POST', url: `${base}/${ok}/import/retry`, key: account.key, payload: {} }), 409, 'import_not_failed');
      const retried = await hark.request({ method: 'POST', url: `${base}/${gone}/import/retry`, key: account.key, payload: { url: origin.url('/call.wav') } });
      assert.equal(retried.statusCode, 202, retried.body);
      assert.equal(retried.json<Card>().status, 'download_pending');
      assert.equal((await waitForRecording(hark, account, gone, ['completed', 'failed', 'download_failed'])).status, 'completed');

      assertProblem(await hark.request({ method: 'POST', url: `${base}/import`, key: account.key, payload: { url: 'ftp://example.com/a.wav' } }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'POST', url: `${base}/import`, key: account.key, payload: { url: 'http://user:pw@example.com/a.wav' } }), 400, 'validation_failed');
      assertProblem(await hark.request({ method: 'POST', url: `${base}/import`, key: account.key, payload: {} }), 400, 'validation_failed');
    });

    test('recording_not_ready rule, retention expiry and delete', async () => {
      const { assertTranscribable } = await import('../src/core/recordings/recordings.ts');
      const response = await upload(hark, account, sample, { fields: { retention_days: '1' } });
      const card = await waitForRecording(hark, account, response.json<Card>().id, ['completed']);
      const row = await hark.runtime.ctx.db.selectFrom('recordings').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
      assert.throws(() => assertTranscribable({ ...row, status: 'downloading' }), { code: 'recording_not_ready' });
      assert.throws(() => assertTranscribable({ ...row, status: 'download_pending' }), { code: 'recording_not_ready' });
      assert.doesNotThrow(() => assertTranscribable(row));

      await hark.runtime.ctx.db.updateTable('recordings').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', card.id).execute();
      const { expireAudio } = await import('../src/features/recordings/expire-audio.ts');
      assert.ok((await expireAudio(hark.runtime.ctx)) >= 1);
      const expired = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/recordings/${card.id}`, key: account.key })).json<Card>();
      assert.ok(expired.audio_deleted_at);
      assert.equal(expired.status, 'completed');
      assert.equal(await hasBlob(hark, `recordings/${account.workspaceId}/${card.id}/original`), false);
      assert.equal(await hasBlob(hark, `recordings/${account.workspaceId}/${card.id}/prepared.wav`), false);

      const base = `/api/v1/workspaces/${account.workspaceId}/recordings`;
      assert.equal((await hark.request({ method: 'DELETE', url: `${base}/${card.id}`, key: account.key })).statusCode, 204);
      assertProblem(await hark.request({ method: 'GET', url: `${base}/${card.id}`, key: account.key }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'GET', url: `${base}/fl-nope`, key: account.key }), 404, 'not_found');
    });

    test('deleting a recording removes its audio at once, and again by a job queued with the delete', async () => {
      const ws = await registerAccount(hark);
      const id = (await upload(hark, ws, sample)).json<{ id: string }>().id;
      await waitForRecording(hark, ws, id, ['completed']);
      const folder = `recordings/${ws.workspaceId}/${id}`;
      assert.deepEqual(await storedKeys(hark, folder), [`${folder}/original`, `${folder}/prepared.wav`]);
      assert.equal((await hark.request({ method: 'DELETE', url: `/api/v1/workspaces/${ws.workspaceId}/recordings/${id}`, key: ws.key })).statusCode, 204);
      assert.deepEqual(await storedKeys(hark, folder), []);
      // The second pass is queued, a minute on, for this recording.
      const { database, queue } = hark.runtime.ctx;
      const { rows } = await database.sql.executeSql(`SELECT data, start_after > now() + interval '30 seconds' AS later FROM ${queue.schema}.job WHERE name = 'remove-audio'`, []);
      const job = (rows as { data: { workspaceId: string; recordingId: string }; later: boolean }[]).find((row) => row.data.recordingId === id);
      assert.ok(job?.later, 'a remove-audio job a minute on');
      // What a preparation still running at the delete writes after it is removed by that job.
      const late = hark.runtime.ctx.blobs.tempPath();
      fs.writeFileSync(late, 'written after the delete');
      await hark.runtime.ctx.blobs.commit(late, `${folder}/prepared.wav`);
      const { removeAudioJob } = await import('../src/features/recordings/remove-audio.ts');
      await removeAudioJob(hark.runtime.ctx).handle(job.data, { id: 'in-test', retryCount: 0 });
      assert.deepEqual(await storedKeys(hark, folder), []);
    });

    test('scopes and the trial: a read-only key cannot upload; after the trial uploads answer 402 and reads work', async () => {
      const ws = await registerAccount(hark);
      const base = `/api/v1/workspaces/${ws.workspaceId}`;
      const reader = (await hark.request({ method: 'POST', url: `${base}/api-keys`, key: ws.key, payload: { name: 'r', scopes: ['recordings:read'] } })).json<{ key: string }>().key;
      const refused = await upload(hark, { ...ws, key: reader }, sample);
      assert.match(String(assertProblem(refused, 403, 'insufficient_scope').detail), /recordings:write/);
      assert.equal((await hark.request({ method: 'GET', url: `${base}/recordings`, key: reader })).statusCode, 200);

      await hark.runtime.ctx.db.updateTable('workspaces').set({ trial_ends_at: new Date(Date.now() - 1000) }).where('id', '=', ws.workspaceId).execute();
      assertProblem(await upload(hark, ws, sample), 402, 'trial_expired');
      assertProblem(await hark.request({ method: 'POST', url: `${base}/recordings/import`, key: ws.key, payload: { url: origin.url('/call.wav') } }), 402, 'trial_expired');
      assert.equal((await hark.request({ method: 'GET', url: `${base}/recordings`, key: ws.key })).statusCode, 200);
      await hark.runtime.ctx.db.updateTable('workspaces').set({ plan: 'business' }).where('id', '=', ws.workspaceId).execute();
      assert.equal((await upload(hark, ws, sample)).statusCode, 202);
    });
  });

  describe(`queue across a restart on ${backend}`, () => {
    test('a job enqueued before a restart runs after it', async () => {
      let hark = await startHark({ backend, workers: false });
      try {
        const account = await registerAccount(hark);
        const id = (await upload(hark, account, sample)).json<Card>().id;
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal((await waitForRecording(hark, account, id, ['queued'])).status, 'queued');
        hark = await hark.restart({ workers: true });
        assert.equal((await waitForRecording(hark, account, id, ['completed', 'failed'])).status, 'completed');
      } finally {
        await hark.destroy();
      }
    });
  });
}
