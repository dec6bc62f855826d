// Recordings over HTTP, through the shipped TypeScript client: upload in every format, bad input,
// metadata, paging, filters, imports, retention, scopes and the trial, on PGlite and PostgreSQL.
// Uploads and imports answer 202 on success, the only success openapi.json gives them, and every
// answer the client gets is checked against it. Bodies the client cannot send (a wrong content
// type, a malformed multipart body, JSON nested too deep to stringify) are sent by hand.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Hark as HarkClient } from '../clients/typescript/src/index.ts';
import { durationOf, encode, mimeOf, multipart, speech, tone } from './helpers/audio.ts';
import { recordingReaches } from './helpers/api.ts';
import { assertProblem, backends, hasBlob, registerAccount, rejectsWith, scratchDir, startHark, storedKeys, type Account, type Hark } from './helpers/harness.ts';
import { serveBytes, startOrigin, status, type Origin } from './helpers/origin.ts';


const sample = speech('Hello, thank you for calling. How can I help you today?');

/** A file's bytes as the client uploads them, the form part typed `type`. */
const blob = (file: string | Buffer, type = 'audio/wav') => new Blob([new Uint8Array(typeof file === 'string' ? fs.readFileSync(file) : file)], { type });

/** Uploads through the client as this suite always has: a part typed audio/wav unless `type` says, named as the file (audio.wav for bytes). */
function upload(client: HarkClient, file: string | Buffer, { type, ...options }: Parameters<HarkClient['upload']>[1] & { type?: string } = {}) {
  return client.upload(blob(file, type), { filename: typeof file === 'string' ? path.basename(file) : 'audio.wav', ...options });
}

/** A form with its text fields sent as written (the client's upload makes them from values), then the file. */
function form(fields: Record<string, string>, file?: string): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file) body.append('file', blob(file), path.basename(file));
  return body;
}

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
    let client: HarkClient;
    let origin: Origin;
    const wavBytes = fs.readFileSync(sample);
    before(async () => {
      hark = await startHark({ backend, env: { HARK_IMPORT_BACKOFF_SECONDS: '2', HARK_MAX_UPLOAD_BYTES: '3000000' } });
      account = await registerAccount(hark);
      client = hark.client(account.key);
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
        const card = await upload(client, file, { type: mimeOf[format] });
        assert.match(card.id, /^fl-/);
        assert.ok(['queued', 'processing', 'completed'].includes(card.status));
        ids[format] = card.id;
      }
      for (const format of formats) {
        const card = await recordingReaches(client, ids[format]!, ['completed', 'failed']);
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
      const card = await recordingReaches(client, (await upload(client, ten)).id, ['completed', 'failed']);
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
      const ready = await upload(client, tagged, { filename: 'tagged.wav' });
      const other = await upload(client, encode(sample, 'flac'));
      for (const card of [ready, other]) assert.equal((await recordingReaches(client, card.id, ['completed', 'failed'])).status, 'completed');
      const folder = (id: string) => `recordings/${account.workspaceId}/${id}`;
      assert.ok((await bytes(`${folder(ready.id)}/prepared.wav`)).equals(await bytes(`${folder(ready.id)}/original`)), 'used as it is');
      assert.ok(!(await bytes(`${folder(other.id)}/prepared.wav`)).equals(await bytes(`${folder(other.id)}/original`)));
    });

    test('octet-stream, or no type at all, is accepted when the content is audio; the card names the content\'s type', async () => {
      const card = await upload(client, sample, { type: 'application/octet-stream' });
      assert.equal(card.content_type, 'audio/wav');
      assert.equal((await recordingReaches(client, card.id, ['completed', 'failed'])).status, 'completed');
      const url = `/api/v1/workspaces/${account.workspaceId}/recordings`;
      const untyped = multipart({}, { content: wavBytes, filename: 'call.wav', contentType: null });
      const answer = await hark.request({ method: 'POST', url, key: account.key, headers: untyped.headers, payload: untyped.payload });
      assert.equal(answer.statusCode, 202, answer.body);
      assert.equal(answer.json<{ content_type: string }>().content_type, 'audio/wav');
      const notAudio = multipart({}, { content: Buffer.from('just some text, not audio at all. '.repeat(10)), filename: 'notes.txt', contentType: null });
      assertProblem(await hark.request({ method: 'POST', url, key: account.key, headers: notAudio.headers, payload: notAudio.payload }), 415, 'unsupported_media_type');
      // A type that names another container: the card says what the content is; one that names it is kept.
      assert.equal((await upload(client, sample, { type: 'audio/mpeg' })).content_type, 'audio/wav');
      assert.equal((await upload(client, sample, { type: 'audio/x-wav' })).content_type, 'audio/x-wav');
    });

    test('bad input gets its code and leaves nothing behind', async () => {
      const other = await registerAccount(hark);
      const otherClient = hark.client(other.key);
      await rejectsWith(upload(otherClient, Buffer.from('just some text, not audio at all. '.repeat(10))), 415, 'unsupported_media_type');
      await rejectsWith(upload(otherClient, sample, { type: 'image/png' }), 415, 'unsupported_media_type');
      await rejectsWith(upload(otherClient, Buffer.alloc(3_100_000, 1)), 413, 'payload_too_large');
      const big = Buffer.concat([wavBytes.subarray(0, 44), Buffer.alloc(3_100_000)]);
      await rejectsWith(upload(otherClient, big), 413, 'payload_too_large');
      // Metadata that is not an object, a value the client's types refuse; metadata that is not JSON, a field as written.
      await rejectsWith(upload(otherClient, sample, { metadata: [1, 2] as never }), 400, 'validation_failed');
      await rejectsWith(otherClient.uploadRecording({ body: form({ metadata: '{"a":' }, sample) }), 400, 'validation_failed');
      await rejectsWith(upload(otherClient, sample, { metadata: { x: 'y'.repeat(70_000) } }), 400, 'validation_failed');
      await rejectsWith(upload(otherClient, sample, { retentionDays: 0 }), 400, 'validation_failed');
      await rejectsWith(upload(otherClient, sample, { retentionDays: 3651 }), 400, 'validation_failed');
      await rejectsWith(otherClient.uploadRecording({ body: form({ metadata: '{}' }) }), 400, 'validation_failed');
      // Bodies the client never sends for an upload (JSON, multipart without a boundary, cut off): by hand.
      const url = `/api/v1/workspaces/${other.workspaceId}/recordings`;
      const json = await hark.request({ method: 'POST', url, key: other.key, payload: { file: 'x' } });
      assertProblem(json, 415, 'unsupported_media_type');
      const noBoundary = await hark.request({ method: 'POST', url, key: other.key, headers: { 'content-type': 'multipart/form-data' }, payload: 'x' });
      assertProblem(noBoundary, 400, 'validation_failed');
      const whole = multipart({}, { content: wavBytes, filename: 'a.wav', contentType: 'audio/wav' });
      const cut = whole.payload.subarray(0, whole.payload.length - 40);
      assertProblem(await hark.request({ method: 'POST', url, key: other.key, headers: whole.headers, payload: cut }), 400, 'validation_failed');
      const twoFiles = form({});
      for (const name of ['a.wav', 'b.wav']) twoFiles.append('file', blob(wavBytes), name);
      await rejectsWith(otherClient.uploadRecording({ body: twoFiles }), 400, 'validation_failed');
      const deep = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
      await rejectsWith(otherClient.uploadRecording({ body: form({ metadata: deep }, sample) }), 400, 'validation_failed');
      // JSON nested this deep overflows the client's JSON.stringify: sent by hand.
      const deepImport = `{"url":"http://example.com/a.wav","metadata":${deep}}`;
      assertProblem(await hark.request({ method: 'POST', url: `${url}/import`, key: other.key, headers: { 'content-type': 'application/json' }, payload: deepImport }), 400, 'validation_failed');
      await rejectsWith(otherClient.getRecording({ path: { recording_id: `fl-${'x'.repeat(300)}` } }), 404, 'not_found');
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
        const uploaded = await upload(client, content, { filename: `${name}.wav` });
        const card = await recordingReaches(client, uploaded.id, ['completed', 'failed']);
        assert.equal(card.status, 'failed', name);
        assert.ok(card.error_code, name);
        if (name !== 'empty') assert.equal(card.error_code, code, name);
      }
    });

    test('metadata round-trips unchanged', async () => {
      const metadata = { agent: { name: 'Zoë 李', id: 42 }, score: 3.25, tags: ['a', 'b', null], ok: true, none: null, emoji: '🎧', big: 12345678901 };
      const card = await upload(client, sample, { metadata, retentionDays: 3 });
      assert.deepEqual(card.metadata, metadata);
      assert.deepEqual(Object.keys(card.metadata), Object.keys(metadata));
      assert.equal(card.retention_days, 3);
      assert.ok(Math.abs(new Date(card.expires_at).getTime() - Date.now() - 3 * 86_400_000) < 120_000);
      const again = await client.getRecording({ path: { recording_id: card.id } });
      assert.deepEqual(again.metadata, metadata);
    });

    test('cursor paging returns every recording once while new ones arrive, and metadata filters', async () => {
      const ws = hark.client((await registerAccount(hark)).key);
      const created = new Set<string>();
      for (let i = 0; i < 7; i++) {
        const card = await upload(ws, sample, { metadata: { team: i % 2 ? 'red' : 'blue', n: i, nested: { tier: i < 3 ? 'gold' : 'basic' } } });
        created.add(card.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let extra = 0;
      do {
        const page = await ws.listRecordings({ query: { limit: 3, ...(cursor ? { cursor } : {}) } });
        seen.push(...page.data.map((r) => r.id));
        cursor = page.next_cursor;
        if (extra < 2) {
          extra += 1;
          await upload(ws, sample);
        }
      } while (cursor);
      assert.equal(new Set(seen).size, seen.length, 'a recording was returned twice');
      for (const id of created) assert.ok(seen.includes(id), `recording ${id} was skipped`);

      const list = async (query: Record<string, string>) => (await ws.listRecordings({ query })).data;
      assert.equal((await list({ 'metadata.team': 'red' })).length, 3);
      assert.equal((await list({ 'metadata.team': 'red', 'metadata.n': '3' })).length, 1);
      // Exact: a number is found by the text JSON writes for it; a field no metadata can hold finds nothing.
      assert.equal((await list({ 'metadata.n': '03' })).length, 0);
      assert.equal((await list({ 'metadata.n': '3.0' })).length, 0);
      assert.equal((await list({ 'metadata.__proto__': 'x' })).length, 0);
      assert.equal((await list({ 'metadata.nested.tier': 'gold' })).length, 3);
      assert.equal((await list({ 'metadata.team': 'green' })).length, 0);
      assert.equal((await list({ status: 'download_failed' })).length, 0);
      assert.equal((await list({ created_after: new Date(Date.now() + 60_000).toISOString() })).length, 0);
      await rejectsWith(ws.listRecordings({ query: { limit: 500 } }), 400, 'validation_failed');
      await rejectsWith(ws.listRecordings({ query: { cursor: 'nonsense' } }), 400, 'validation_failed');
      await rejectsWith(ws.listRecordings({ query: { status: 'bogus' } }), 400, 'validation_failed');
      // A status filter that names no status is the client's mistake, on every list (was `IN ()`, a 500).
      const lists = [
        (status: string) => ws.listRecordings({ query: { status } }),
        (status: string) => ws.listTranscriptionRuns({ query: { status } }),
        (status: string) => ws.listAnalysisRuns({ query: { status } }),
      ];
      for (const list of lists) {
        for (const status of [',', ' ', ', ,']) await rejectsWith(list(status), 400, 'validation_failed');
      }
    });

    test('imports: success, redirect, 404, 503 then 200, unsupported, retry with a new URL', async () => {
      const start = async (url: string, extra: { filename?: string; metadata?: Record<string, unknown> } = {}) => {
        const card = await client.importRecording({ body: { url, ...extra } });
        assert.equal(card.status, 'download_pending');
        assert.equal(card.source, 'import');
        return card.id;
      };
      const ok = await start(origin.url('/call.wav'), { filename: 'call.wav', metadata: { crm: 'x1' } });
      const hop = await start(origin.url('/hop'));
      const flaky = await start(origin.url('/flaky.wav'));
      const gone = await start(origin.url('/gone.wav'));
      const html = await start(origin.url('/page.html'));

      const waited = await recordingReaches(client, flaky, ['download_retry_wait', 'completed']);
      assert.equal(waited.status, 'download_retry_wait', 'a 503 should wait for a retry');
      assert.equal(waited.error_code, 'http_503');
      const recovered = await recordingReaches(client, flaky, ['completed', 'failed', 'download_failed']);
      assert.equal(recovered.status, 'completed');
      assert.equal(origin.hits('/flaky.wav'), 2);
      const done = await recordingReaches(client, ok, ['completed', 'failed', 'download_failed']);
      assert.equal(done.status, 'completed');
      assert.deepEqual(done.metadata, { crm: 'x1' });
      assert.equal((await recordingReaches(client, hop, ['completed', 'failed', 'download_failed'])).status, 'completed');
      const failed = await recordingReaches(client, gone, ['download_failed', 'completed']);
      assert.equal(failed.error_code, 'http_404');
      assert.equal((await recordingReaches(client, html, ['download_failed', 'completed'])).error_code, 'unsupported_media_type');

      await rejectsWith(client.retryImport({ path: { recording_id: ok }, body: {} }), 409, 'import_not_failed');
      assert.equal((await client.getRecording({ path: { recording_id: gone } })).filename, 'gone.wav');
      const retried = await client.retryImport({ path: { recording_id: gone }, body: { url: origin.url('/call.wav') } });
      assert.equal(retried.status, 'download_pending');
      assert.deepEqual([retried.filename, retried.error_code], ['call.wav', null], 'the name the old URL gave follows the new one; the old error is gone');
      assert.equal((await recordingReaches(client, gone, ['completed', 'failed', 'download_failed'])).status, 'completed');

      // A name the URL spells with a malformed escape, or a NUL, is kept as well as it can be, never a 500.
      for (const [path, name] of [['/%E0%A4%A.wav', '%E0%A4%A.wav'], ['/a%00b.wav', 'ab.wav']] as const) {
        const odd = await client.importRecording({ body: { url: `https://calls.example.com${path}` } });
        assert.equal(odd.filename, name);
        await client.deleteRecording({ path: { recording_id: odd.id } });
      }
      await rejectsWith(client.importRecording({ body: { url: 'ftp://example.com/a.wav' } }), 400, 'validation_failed');
      await rejectsWith(client.importRecording({ body: { url: 'http://user:pw@example.com/a.wav' } }), 400, 'validation_failed');
      // A body without its url, which the client's types refuse.
      await rejectsWith(client.importRecording({ body: {} as never }), 400, 'validation_failed');
    });

    test('recording_not_ready rule, retention expiry and delete', async () => {
      const { assertTranscribable } = await import('../src/core/recordings/recordings.ts');
      const uploaded = await upload(client, sample, { retentionDays: 1 });
      const card = await recordingReaches(client, uploaded.id, ['completed']);
      const row = await hark.runtime.ctx.db.selectFrom('recordings').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
      assert.throws(() => assertTranscribable({ ...row, status: 'downloading' }), { code: 'recording_not_ready' });
      assert.throws(() => assertTranscribable({ ...row, status: 'download_pending' }), { code: 'recording_not_ready' });
      assert.doesNotThrow(() => assertTranscribable(row));
      // Kept longer, counted from the upload; out of the server's range, a 400 naming the field.
      const longer = await client.updateRecording({ path: { recording_id: card.id }, body: { retention_days: 30 } });
      assert.equal(longer.retention_days, 30);
      assert.equal(Date.parse(longer.expires_at) - Date.parse(longer.created_at), 30 * 86_400_000);
      assert.deepEqual(longer.metadata, card.metadata, 'the rest as it was');
      const tooLong = await rejectsWith(client.updateRecording({ path: { recording_id: card.id }, body: { retention_days: 100_000 } }), 400, 'validation_failed');
      assert.match(tooLong.detail, /retention_days/);

      await hark.runtime.ctx.db.updateTable('recordings').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', card.id).execute();
      // Past expires_at and not yet swept (the sweep runs hourly): the audio is neither served nor transcribed.
      await rejectsWith(client.createTranscriptionRun({ path: { recording_id: card.id }, body: {} }), 409, 'audio_expired');
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/recordings/${card.id}/audio`, key: account.key }), 409, 'audio_expired');
      const { expireAudio } = await import('../src/features/recordings/expire-audio.ts');
      assert.ok((await expireAudio(hark.runtime.ctx)) >= 1);
      const expired = await client.getRecording({ path: { recording_id: card.id } });
      assert.ok(expired.audio_deleted_at);
      assert.equal(expired.status, 'completed');
      assert.equal(await hasBlob(hark, `recordings/${account.workspaceId}/${card.id}/original`), false);
      assert.equal(await hasBlob(hark, `recordings/${account.workspaceId}/${card.id}/prepared.wav`), false);
      await rejectsWith(client.updateRecording({ path: { recording_id: card.id }, body: { retention_days: 30 } }), 409, 'audio_expired');

      assert.equal(await client.deleteRecording({ path: { recording_id: card.id } }), null, '204, no body');
      await rejectsWith(client.getRecording({ path: { recording_id: card.id } }), 404, 'not_found');
      await rejectsWith(client.getRecording({ path: { recording_id: 'fl-nope' } }), 404, 'not_found');
    });

    test('deleting a recording removes its audio at once, and again by a job queued with the delete', async () => {
      const ws = await registerAccount(hark);
      const wsClient = hark.client(ws.key);
      const { id } = await upload(wsClient, sample);
      await recordingReaches(wsClient, id, ['completed']);
      const folder = `recordings/${ws.workspaceId}/${id}`;
      assert.deepEqual(await storedKeys(hark, folder), [`${folder}/original`, `${folder}/prepared.wav`]);
      assert.equal(await wsClient.deleteRecording({ path: { recording_id: id } }), null, '204, no body');
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
      const wsClient = hark.client(ws.key);
      const reader = hark.client((await wsClient.createApiKey({ body: { name: 'r', scopes: ['recordings:read'] } })).key);
      const refused = await rejectsWith(upload(reader, sample), 403, 'insufficient_scope');
      assert.match(refused.detail, /recordings:write/);
      await reader.listRecordings();

      await hark.runtime.ctx.db.updateTable('workspaces').set({ trial_ends_at: new Date(Date.now() - 1000) }).where('id', '=', ws.workspaceId).execute();
      await rejectsWith(upload(wsClient, sample), 402, 'trial_expired');
      await rejectsWith(wsClient.importRecording({ body: { url: origin.url('/call.wav') } }), 402, 'trial_expired');
      await wsClient.listRecordings();
      await hark.runtime.ctx.db.updateTable('workspaces').set({ plan: 'business' }).where('id', '=', ws.workspaceId).execute();
      await upload(wsClient, sample);
    });
  });

  describe(`queue across a restart on ${backend}`, () => {
    test('a job enqueued before a restart runs after it', async () => {
      let hark = await startHark({ backend, workers: false });
      try {
        const account = await registerAccount(hark);
        const { id } = await upload(hark.client(account.key), sample);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal((await recordingReaches(hark.client(account.key), id, ['queued'])).status, 'queued');
        hark = await hark.restart({ workers: true });
        // The client is bound to the app it was made for: a new one for the restarted app.
        assert.equal((await recordingReaches(hark.client(account.key), id, ['completed', 'failed'])).status, 'completed');
      } finally {
        await hark.destroy();
      }
    });
  });
}
