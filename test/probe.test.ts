// What a black-box probe found, each with the test that shows it fixed: NUL characters, framework
// errors that were not problem+json, a scope bypass through /v1/files, unnamed multipart parts,
// OpenAI parameters ignored, an engine answering non-JSON, and private import addresses accepted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { waitForRecording } from './helpers/api.ts';
import { multipart, speech } from './helpers/audio.ts';
import { assertProblem, backends, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';
import { startOrigin, type Origin } from './helpers/origin.ts';

/** An OpenAI-shaped error whose message names what was wrong. */
function assertProblemLike(body: unknown, message: RegExp): void {
  assert.match((body as { error: { message: string } }).error.message, message);
}

/** Sends raw bytes and returns the raw answer (for what app.inject cannot send). */
function rawRequest(base: string, text: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

for (const backend of await backends()) {
  describe(`probe findings on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    let base: string;
    let origin: Origin;
    const wav = speech('Hello, thank you for calling.');
    before(async () => {
      hark = await startHark({ backend, env: { HARK_IMPORT_ALLOW_PRIVATE: '0', HARK_MAX_AUDIO_SECONDS: '60' } });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
      base = await hark.app.listen({ port: 0, host: '127.0.0.1' });
      origin = await startOrigin({ '/v1/audio/transcriptions': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>') });
    });
    after(async () => {
      await origin.close();
      await hark.destroy();
    });

    test('scenario, API key and webhook lists page by limit, offset and cursor', async () => {
      const key = account.key;
      for (let i = 0; i < 3; i++) {
        assert.equal((await hark.request({ method: 'POST', url: `${P}/webhooks`, key, payload: { url: `https://93.184.216.34/hook-${i}`, events: ['*'] } })).statusCode, 201);
        assert.equal((await hark.request({ method: 'POST', url: `${P}/api-keys`, key, payload: { name: `paged ${i}`, scopes: ['recordings:read'] } })).statusCode, 201);
        assert.equal((await hark.request({ method: 'POST', url: `${P}/analysis-scenarios`, key, payload: { name: `paged ${i}`, questions: [{ id: 'q', text: 'Did the agent greet the customer?', type: 'boolean' }] } })).statusCode, 201);
      }
      for (const list of ['webhooks', 'api-keys', 'analysis-scenarios', 'transcription-scenarios']) {
        const all = (await hark.request({ method: 'GET', url: `${P}/${list}`, key })).json<{ data: { id: string }[]; next_cursor: string | null }>();
        assert.equal(all.next_cursor, null, `${list}: everything on one page by default`);
        const ids = all.data.map((item) => item.id);
        assert.ok(ids.length >= 1, list);
        // Walked two at a time by cursor, then by offset: the same items in the same order.
        const walked: string[] = [];
        let cursor: string | null = null;
        do {
          const answer = await hark.request({ method: 'GET', url: `${P}/${list}?limit=2${cursor ? `&cursor=${cursor}` : ''}`, key });
          assert.equal(answer.statusCode, 200, answer.body);
          const pageOf = answer.json<{ data: { id: string }[]; next_cursor: string | null }>();
          assert.ok(pageOf.data.length <= 2);
          walked.push(...pageOf.data.map((item) => item.id));
          cursor = pageOf.next_cursor;
        } while (cursor);
        assert.deepEqual(walked, ids, list);
        const second = (await hark.request({ method: 'GET', url: `${P}/${list}?limit=1&offset=1`, key })).json<{ data: { id: string }[] }>().data;
        assert.deepEqual(second.map((item) => item.id), ids.slice(1, 2), `${list} by offset`);
        for (const bad of ['limit=0', 'limit=201', 'offset=-1', 'cursor=nonsense', 'colour=red']) {
          assertProblem(await hark.request({ method: 'GET', url: `${P}/${list}?${bad}`, key }), 400, 'validation_failed');
        }
      }
    });

    test('a NUL character anywhere is a 400 naming where, never a 500', async () => {
      const key = account.key;
      const checks = [
        await hark.request({ method: 'GET', url: `${P}/recordings?metadata.agent=a%00b`, key }),
        await hark.request({ method: 'GET', url: `${P}/recordings/fl-%00`, key }),
        await hark.request({ method: 'GET', url: `${P}/reports/recordings?group_by=metadata.a%00`, key }),
        await hark.request({ method: 'POST', url: `${P}/webhooks`, key, payload: { url: 'https://example.com/\u0000', events: ['*'] } }),
        await hark.request({ method: 'POST', url: `${P}/analysis-scenarios`, key, payload: { name: 'x', questions: [{ text: 'Did \u0000 happen?', type: 'boolean' }] } }),
        await hark.request({ method: 'POST', url: `${P}/api-keys`, key, payload: { name: 'k', scopes: ['recordings:read'], ['a\u0000']: 1 } }),
        await hark.request({ method: 'POST', url: `${P}/recordings`, key, ...multipart({ metadata: '{"agent":"a\\u0000"}' }, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) }),
        await hark.request({ method: 'POST', url: `${P}/recordings`, key, ...multipart({ note: 'a\u0000b' }, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) }),
      ];
      for (const response of checks) {
        const problem = assertProblem(response, 400, 'validation_failed');
        assert.match(String(problem.detail), /NUL|U\+0000|\\u0000/, String(problem.detail));
      }
      const list = await hark.request({ method: 'GET', url: `${P}/recordings`, key });
      assert.equal(list.json<{ data: unknown[] }>().data.length, 0, 'no recording was left behind');
    });

    test('a lone surrogate or a number beyond a double is a 400 naming where; nothing is kept', async () => {
      const key = account.key;
      const json = { 'content-type': 'application/json' };
      const upload = await hark.request({ method: 'POST', url: `${P}/recordings`, key, ...multipart({}, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      const id = upload.json<{ id: string }>().id;
      const infinite = '{"name":"x","rule":{"match":"any","conditions":[{"type":"talk","metric":"talk_ratio","op":"above","value":1e400}]}}';
      const checks: [Awaited<ReturnType<typeof hark.request>>, RegExp, RegExp][] = [
        [await hark.request({ method: 'POST', url: `${P}/categories`, key, headers: json, payload: infinite }), /finite/, /conditions\/0\/value/],
        [await hark.request({ method: 'PATCH', url: `${P}/recordings/${id}`, key, headers: json, payload: '{"metadata":{"k":"\\ud800"}}' }), /surrogate/, /metadata\/k/],
        [await hark.request({ method: 'PATCH', url: `${P}/recordings/${id}`, key, headers: json, payload: '{"metadata":{"\\udc00k":1}}' }), /surrogate/, /metadata/],
        [await hark.request({ method: 'POST', url: `${P}/categories`, key, headers: json, payload: '{"name":"\\ud800x","rule":{"match":"any","conditions":[{"type":"phrase","phrases":["refund"]}]}}' }), /surrogate/, /name/],
        [await hark.request({ method: 'PATCH', url: `${P}/recordings/${id}`, key, headers: json, payload: '{"metadata":{"x":1e400}}' }), /finite/, /metadata\/x/],
      ];
      for (const [response, message, where] of checks) {
        const problem = assertProblem(response, 400, 'validation_failed');
        assert.match(String(problem.detail), message, String(problem.detail));
        assert.match(String(problem.detail), where, String(problem.detail));
      }
      const categories = await hark.request({ method: 'GET', url: `${P}/categories`, key });
      assert.equal(categories.statusCode, 200);
      assert.deepEqual(categories.json<{ data: unknown[] }>().data, [], 'no category was kept');
      // A pair of surrogates is one character, and welcome.
      const emoji = await hark.request({ method: 'PATCH', url: `${P}/recordings/${id}`, key, headers: json, payload: '{"metadata":{"mood":"\\ud83d\\ude00"}}' });
      assert.equal(emoji.statusCode, 200);
      assert.equal(emoji.json<{ metadata: { mood: string } }>().metadata.mood, '😀');
    });

    test('blank names and wordless phrases are refused alike everywhere; an empty update changes nothing', async () => {
      const key = account.key;
      for (const kind of ['transcription-scenarios', 'analysis-scenarios']) {
        assertProblem(await hark.request({ method: 'POST', url: `${P}/${kind}`, key, payload: { name: '   ' } }), 400, 'validation_failed');
        const made = (await hark.request({ method: 'POST', url: `${P}/${kind}`, key, payload: { name: ' Trimmed ' } })).json<{ id: string; name: string; version: number }>();
        assert.equal(made.name, 'Trimmed');
        assertProblem(await hark.request({ method: 'PATCH', url: `${P}/${kind}/${made.id}`, key, payload: { name: '  ' } }), 400, 'validation_failed');
        assertProblem(await hark.request({ method: 'PATCH', url: `${P}/${kind}/${made.id}`, key, payload: { selection: { statuses: ['bogus'] } } }), 400, 'validation_failed');
        for (const payload of [{}, { version: made.version }]) {
          const same = await hark.request({ method: 'PATCH', url: `${P}/${kind}/${made.id}`, key, payload });
          assert.equal(same.json<{ version: number }>().version, made.version, `${kind}: ${JSON.stringify(payload)} changes nothing`);
        }
      }
      const wordless = (condition: object) => hark.request({ method: 'POST', url: `${P}/categories`, key, payload: { name: 'c', rule: { match: 'any', conditions: [condition] } } });
      assertProblem(await wordless({ type: 'phrase', phrases: ['!!!'] }), 400, 'validation_failed');
      assertProblem(await wordless({ type: 'phrase', phrases: ['refund'], speaker: '  ' }), 400, 'validation_failed');
      assertProblem(await wordless({ type: 'similar_to', text: '?!' }), 400, 'validation_failed');
    });

    test('framework errors are problem+json: long ids 404, bad percent-encoding 400, huge URLs 414, huge headers 431', async () => {
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/fl-${'x'.repeat(1200)}`, key: account.key }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/%ff`, key: account.key }), 400, 'validation_failed');
      const answer = await rawRequest(base, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 431 /);
      assert.match(answer, /content-type: application\/problem\+json/i);
      assert.match(answer, /"code":"headers_too_large"/);
      // A URL past the limit is said to be the URL: 414, not 431.
      const long = await rawRequest(base, `GET ${P}/recordings?metadata.agent=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.match(long, /^HTTP\/1\.1 414 /);
      assert.match(long, /content-type: application\/problem\+json/i);
      assert.match(long, /"code":"uri_too_long"/);
      // A long URL under the limit with headers that pass it is still the headers' fault.
      const both = await rawRequest(base, `GET /healthz?${'q'.repeat(2_000)} HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
      assert.match(both, /^HTTP\/1\.1 431 /);
    });

    test('a multipart part without a name is a 400, not a 500 or a field called "undefined"', async () => {
      const unnamedFile = '--XX\r\nContent-Disposition: form-data; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFFxxxxWAVE\r\n--XX--\r\n';
      const unnamedField = `--XX\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n${fs.readFileSync(wav, 'latin1')}\r\n--XX\r\nContent-Disposition: form-data\r\n\r\nv\r\n--XX--\r\n`;
      for (const url of [`${P}/recordings`, '/v1/files']) {
        for (const payload of [unnamedFile, unnamedField]) {
          const response = await hark.request({ method: 'POST', url, key: account.key, headers: { 'content-type': 'multipart/form-data; boundary=XX' }, payload: Buffer.from(payload, 'latin1') });
          assertProblem(response, 400, 'validation_failed');
        }
      }
    });

    test('/v1/files/{id} needs the scopes that read transcripts and analyses', async () => {
      const created = await hark.request({ method: 'POST', url: `${P}/api-keys`, key: account.key, payload: { name: 'recordings only', scopes: ['recordings:read', 'recordings:write'] } });
      const narrow = created.json<{ key: string }>().key;
      const upload = await hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, ...multipart({}, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      const id = upload.json<{ id: string }>().id;
      const problem = assertProblem(await hark.request({ method: 'GET', url: `/v1/files/${id}`, key: narrow }), 403, 'insufficient_scope');
      assert.match(String(problem.detail), /transcripts:read/);
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/${id}/transcript`, key: narrow }), 403, 'insufficient_scope');
      assert.equal((await hark.request({ method: 'GET', url: `/v1/files/${id}`, key: account.key })).statusCode, 200);
      const upload2 = await hark.request({ method: 'POST', url: '/v1/files', key: narrow, ...multipart({}, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      assertProblem(upload2, 403, 'insufficient_scope');
    });

    test('/v1/audio/transcriptions refuses invalid timestamp_granularities[] and temperature like OpenAI', async () => {
      const cases: Record<string, string>[] = [
        { model: 'pocketsphinx/en-us', response_format: 'verbose_json', 'timestamp_granularities[]': 'sentence' },
        { model: 'pocketsphinx/en-us', response_format: 'json', 'timestamp_granularities[]': 'word' },
        { model: 'pocketsphinx/en-us', temperature: 'hot' },
        { model: 'pocketsphinx/en-us', temperature: '3' },
      ];
      for (const fields of cases) {
        const response = await hark.request({ method: 'POST', url: '/v1/audio/transcriptions', key: account.key, ...multipart(fields, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
        assert.equal(response.statusCode, 400, `${JSON.stringify(fields)}: ${response.body}`);
        assert.equal(response.json<{ error: { type: string } }>().error.type, 'invalid_request_error');
      }
    });

    test('/v1/audio/transcriptions takes a language as clients write it, and refuses an engine it cannot reach before any work', async () => {
      const send = (fields: Record<string, string>) => hark.request({ method: 'POST', url: '/v1/audio/transcriptions', key: account.key, ...multipart({ response_format: 'json', ...fields }, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      for (const language of ['EN', 'en-US', 'en_GB']) assert.equal((await send({ model: 'whisper-1', language })).statusCode, 200, language);
      assertProblemLike((await send({ model: 'whisper-1', language: 'xx' })).json(), /language/);
      const before = (await hark.request({ method: 'GET', url: `${P}/recordings`, key: account.key })).json<{ data: unknown[] }>().data.length;
      const unreachable = await send({ model: 'openai/whisper-1' });
      assert.equal(unreachable.statusCode, 400, unreachable.body);
      assert.match(unreachable.json<{ error: { message: string; param: string } }>().error.message, /base_url/);
      assert.equal((await hark.request({ method: 'GET', url: `${P}/recordings`, key: account.key })).json<{ data: unknown[] }>().data.length, before, 'no recording was made');
    });

    test('an engine that answers non-JSON is a 502 engine failure, not a 500', async () => {
      // The operator's own engine address is trusted; a scenario's address gets the guard.
      await hark.restart({ config: { openai: { ...hark.config.openai, baseUrl: origin.url('/v1') } } }).then((next) => (hark = next));
      const scenario = await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'remote', engine: 'openai', model: 'whisper-1', retry: { max_attempts: 1 } } });
      assert.equal(scenario.statusCode, 201, scenario.body);
      const id = scenario.json<{ id: string }>().id;
      const response = await hark.request({ method: 'POST', url: '/v1/audio/transcriptions', key: account.key, ...multipart({ model: id }, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      assert.equal(response.statusCode, 502, response.body);
      assert.match(response.json<{ error: { message: string } }>().error.message, /engine_bad_response/);
    });

    test('an audio bomb (a small FLAC of long silence) fails audio_too_long without writing a large WAV', async () => {
      const bomb = path.join(os.tmpdir(), `hark-bomb-${process.pid}.flac`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-t', '600', '-c:a', 'flac', bomb]);
      const created = await hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, ...multipart({}, { content: fs.readFileSync(bomb), filename: 'bomb.flac', contentType: 'audio/flac' }) });
      fs.rmSync(bomb, { force: true });
      assert.equal(created.statusCode, 202, created.body);
      const card = await waitForRecording(hark, account, created.json<{ id: string }>().id, ['completed', 'failed']);
      assert.equal(card.status, 'failed');
      assert.equal(card.error_code, 'audio_too_long');
      const sizes = fs.readdirSync(hark.config.dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.parentPath.includes('blobs')).map((e) => fs.statSync(path.join(e.parentPath, e.name)).size);
      assert.ok(Math.max(0, ...sizes) < 5 * 1024 * 1024, `no large file is left: ${Math.max(...sizes)} bytes`);
    });

    test('a cursor whose number no bigint holds is a 400 on every list, not a 500', async () => {
      const cursor = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      for (const s of [1e300, 2 ** 63, 99999999999999999999]) {
        for (const list of ['transcription-runs', 'analysis-runs', 'search?q=hello&']) {
          const url = `${P}/${list}${list.includes('?') ? '' : '?'}cursor=${cursor({ s })}`;
          assertProblem(await hark.request({ method: 'GET', url, key: account.key }), 400, 'validation_failed');
        }
        assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings?cursor=${cursor({ u: '1795778332792000', s })}`, key: account.key }), 400, 'validation_failed');
      }
    });

    test('a date-time before year 1 or after year 9999 in UTC, or a day the month lacks, is a 400 naming the field, not a 500', async () => {
      const key = account.key;
      const out = ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00%2B01:00', '9999-12-31T23:59:59-14:00', '2026-02-30T00:00:00Z'];
      for (const value of out) {
        for (const url of [`${P}/recordings?created_after=${value}`, `${P}/recordings?recorded_before=${value}`, `${P}/reports/recordings?created_before=${value}`, `${P}/reports/talk?recorded_after=${value}`, `${P}/search?q=hello&created_after=${value}`]) {
          const problem = assertProblem(await hark.request({ method: 'GET', url, key }), 400, 'validation_failed');
          assert.match(String(problem.detail), /created_after|created_before|recorded_after|recorded_before/, url);
        }
      }
      assert.equal((await hark.request({ method: 'GET', url: `${P}/recordings?created_after=0001-01-01T00:00:00Z&created_before=9999-12-31T23:59:59Z`, key })).statusCode, 200, 'the first and last moments are fine');
      const expiry = await hark.request({ method: 'POST', url: `${P}/api-keys`, key, payload: { name: 'far', scopes: ['recordings:read'], expires_at: '9999-12-31T23:59:59-14:00' } });
      assertProblem(expiry, 400, 'validation_failed');
      const form = await hark.request({ method: 'POST', url: `${P}/recordings`, key, ...multipart({ recorded_at: '2026-02-30T09:00:00Z' }, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      assert.match(String(assertProblem(form, 400, 'validation_failed').detail), /recorded_at/);
    });

    test('a __proto__ key is refused by name alike in a JSON body and in a form field, and nothing is kept', async () => {
      const key = account.key;
      const json = (payload: string) => hark.request({ method: 'POST', url: `${P}/recordings/import`, key, payload, headers: { 'content-type': 'application/json' } });
      for (const body of ['{"url":"https://example.com/a.wav","metadata":{"__proto__":{"x":1}}}', '{"url":"https://example.com/a.wav","metadata":{"a":{"constructor":{"prototype":{"x":1}}}}}']) {
        const problem = assertProblem(await json(body), 400, 'validation_failed');
        assert.match(String(problem.detail), /__proto__/);
      }
      assertProblem(await json('{"url": '), 400, 'invalid_json');
      const form = await hark.request({ method: 'POST', url: `${P}/recordings`, key, ...multipart({ metadata: '{"__proto__":{"admin":true}}' }, { content: fs.readFileSync(wav), filename: 'a.wav', contentType: 'audio/wav' }) });
      assert.match(String(assertProblem(form, 400, 'validation_failed').detail), /metadata.*__proto__/);
      const ok = await json('{"url":"https://example.com/a.wav","metadata":{"constructor":"kept","proto":1}}');
      assert.equal(ok.statusCode, 202, 'a key called constructor holding no prototype is ordinary metadata');
      assert.deepEqual(ok.json<{ metadata: unknown }>().metadata, { constructor: 'kept', proto: 1 });
      await hark.request({ method: 'DELETE', url: `${P}/recordings/${ok.json<{ id: string }>().id}`, key });
    });

    test('a JSON body that is not UTF-8 is refused, never stored with its bytes replaced', async () => {
      const key = account.key;
      const before = (await hark.request({ method: 'GET', url: `${P}/recordings?limit=100`, key })).json<{ data: unknown[] }>().data.length;
      // "café" written in Latin-1: é is the one byte 0xE9.
      const latin1 = Buffer.concat([Buffer.from('{"url":"https://example.com/u.wav","metadata":{"agent":"caf'), Buffer.from([0xe9]), Buffer.from('"}}')]);
      const problem = assertProblem(await hark.request({ method: 'POST', url: `${P}/recordings/import`, key, payload: latin1, headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
      assert.match(String(problem.detail), /not UTF-8/);
      assert.equal((await hark.request({ method: 'GET', url: `${P}/recordings?limit=100`, key })).json<{ data: unknown[] }>().data.length, before, 'nothing was created');
      // The same text in UTF-8, and a byte order mark before it, are read.
      const utf8 = await hark.request({ method: 'POST', url: `${P}/recordings/import`, key, payload: Buffer.from('\uFEFF{"url":"https://example.com/u.wav","metadata":{"agent":"café"}}'), headers: { 'content-type': 'application/json' } });
      assert.equal(utf8.statusCode, 202);
      assert.deepEqual(utf8.json<{ metadata: unknown }>().metadata, { agent: 'café' });
      await hark.request({ method: 'DELETE', url: `${P}/recordings/${utf8.json<{ id: string }>().id}`, key });
    });

    test('a recording or an execution another workspace holds, or none does, is a 404 where it is named', async () => {
      const key = account.key;
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/fl-00000000-0000-0000-0000-000000000000/categories`, key }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'GET', url: `${P}/recordings/garbage/categories`, key }), 404, 'not_found');
      const scenario = (await hark.request({ method: 'GET', url: `${P}/analysis-scenarios`, key })).json<{ data: { id: string }[] }>().data[0]!.id;
      for (const execution of ['not-a-uuid', '01a21cb6-9c41-7000-8000-000000000000']) {
        assertProblem(await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenario}/answers?execution_id=${execution}`, key }), 404, 'not_found');
      }
      assert.equal((await hark.request({ method: 'GET', url: `${P}/analysis-scenarios/${scenario}/answers`, key })).statusCode, 200);
    });

    test('imports to a literal private address or to localhost end in download_failed (address_not_allowed), webhooks are refused at once, in every IPv6 spelling and with a root dot', async () => {
      const imports: string[] = [];
      for (const url of ['http://localhost./a.wav', 'http://LOCALHOST/a.wav', 'http://calls.localhost/a.wav', 'http://127.0.0.1/a.wav', 'http://[::1]/a.wav', 'http://[::7f00:1]/a.wav', 'http://[::ffff:0:7f00:1]/a.wav', 'http://[::ffff:127.0.0.1]/a.wav', 'http://[2002:a00:1::1]/a.wav', 'http://169.254.169.254/']) {
        const imported = await hark.request({ method: 'POST', url: `${P}/recordings/import`, key: account.key, payload: { url } });
        assert.equal(imported.statusCode, 202, imported.body);
        imports.push(imported.json<{ id: string }>().id);
        const hook = await hark.request({ method: 'POST', url: `${P}/webhooks`, key: account.key, payload: { url, events: ['*'] } });
        assertProblem(hook, 400, 'validation_failed');
      }
      for (const id of imports) {
        const card = await waitForRecording(hark, account, id, ['download_failed', 'queued', 'completed']);
        assert.deepEqual([card.status, card.error_code], ['download_failed', 'address_not_allowed'], id);
      }
    });
  });
}
