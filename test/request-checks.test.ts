// What a second black-box probe of the API found, each with the test that shows it fixed: metadata
// that the database or a JSON number cannot keep is a 400 naming where (not a 500, not a changed
// value), a form or a route refuses the fields it does not take, errors name each field once and
// every allowed value, an import's file name keeps no folders, and an execution's idempotency key
// may come as Stripe's Idempotency-Key header.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { multipart, speech } from './helpers/audio.ts';
import { assertProblem, oneBackend, registerAccount, startHark, type Account, type Hark } from './helpers/harness.ts';

for (const backend of await oneBackend()) {
  describe(`request checks on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let P: string;
    const audio = fs.readFileSync(speech('Thank you for calling.'));
    const upload = (fields: Record<string, string>) => {
      const form = multipart(fields, { content: audio, filename: 'call.wav', contentType: 'audio/wav' });
      return hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, payload: form.payload, headers: form.headers });
    };
    /** The body's errors, as "path: message". */
    const errorsOf = (body: Record<string, unknown>) => (body.errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`);
    const recordingCount = async () => (await hark.request({ method: 'GET', url: `${P}/recordings`, key: account.key })).json<{ data: unknown[] }>().data.length;

    before(async () => {
      hark = await startHark({ backend, workers: false });
      account = await registerAccount(hark);
      P = `/api/v1/workspaces/${account.workspaceId}`;
    });
    after(() => hark.destroy());

    test('metadata with a lone surrogate or an integer beyond 2^53 is a 400 naming its field, on a form as in JSON, and nothing is kept', async () => {
      assert.deepEqual(errorsOf(assertProblem(await upload({ metadata: '{"a":"\\ud800"}' }), 400, 'validation_failed')), ['metadata/a: must be well-formed Unicode (a lone surrogate such as \\ud800 is no character)']);
      const big = assertProblem(await upload({ metadata: '{"order":{"n":12345678901234567890}}' }), 400, 'validation_failed');
      assert.match(errorsOf(big)[0] ?? '', /^metadata\/order\/n: 12345678901234567890 is an integer beyond what a JSON number keeps exactly .*send it as a string$/);
      const imported = await hark.request({ method: 'POST', url: `${P}/recordings/import`, key: account.key, payload: '{"url":"https://example.com/a.wav","metadata":{"id":-9007199254740993}}', headers: { 'content-type': 'application/json' } });
      assert.match(errorsOf(assertProblem(imported, 400, 'validation_failed'))[0] ?? '', /^metadata\/id: -9007199254740993 is an integer beyond/);
      // A decimal with more digits than a number keeps, or an exponent beyond its range, is refused too (it became 1, 0, null).
      for (const literal of ['1.0000000000000000000001', '0.1e-400']) {
        assert.match(errorsOf(assertProblem(await upload({ metadata: `{"x":${literal}}` }), 400, 'validation_failed'))[0] ?? '', new RegExp(`^metadata/x: ${literal.replace('.', '\\.')} has more digits.*send it as a string$`));
      }
      assert.deepEqual(errorsOf(assertProblem(await upload({ metadata: '{"x":1e400}' }), 400, 'validation_failed')), ['metadata/x: must be a finite number (1e400 is beyond what a number can hold)']);
      assert.equal(await recordingCount(), 0);
      // The largest exact integer, digits in a string, and a number written otherwise (1.50 is 1.5) are kept.
      const kept = await upload({ metadata: '{"n":9007199254740991,"s":"12345678901234567890","f":1.5e300,"d":1.50,"z":0.30000000000000004}' });
      assert.equal(kept.statusCode, 202, kept.body);
      assert.deepEqual(kept.json<{ metadata: unknown }>().metadata, { n: 9007199254740991, s: '12345678901234567890', f: 1.5e300, d: 1.5, z: 0.30000000000000004 });
    });

    test('bytes that are not UTF-8 in a form field or a file name are a 400, not text changed to U+FFFD', async () => {
      const form = multipart({ metadata: '{"agent":"XX"}' }, { content: audio, filename: 'call.wav', contentType: 'audio/wav' });
      const raw = (replace: [string, Buffer]) => {
        const at = form.payload.indexOf(replace[0]);
        return Buffer.concat([form.payload.subarray(0, at), replace[1], form.payload.subarray(at + replace[0].length)]);
      };
      const send = (payload: Buffer) => hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, payload, headers: form.headers });
      const before = await recordingCount();
      assert.deepEqual(errorsOf(assertProblem(await send(raw(['XX', Buffer.from([0xff, 0xfe])])), 400, 'validation_failed')).map((e) => e.split(':')[0]), ['metadata']);
      assert.deepEqual(errorsOf(assertProblem(await send(raw(['call.wav', Buffer.from([0x63, 0xed, 0xa0, 0x80, 0x2e, 0x77, 0x61, 0x76])])), 400, 'validation_failed')).map((e) => e.split(':')[0]), ['file']);
      assert.equal(await recordingCount(), before);
    });

    test('an upload form refuses a field it does not take, and a field sent twice', async () => {
      assert.deepEqual(errorsOf(assertProblem(await upload({ agent: 'sam' }), 400, 'validation_failed')), ['agent: is not a field of this form (it takes file, metadata, retention_days, recorded_at, filename)']);
      // A name to keep, as an import takes one.
      const named = await upload({ filename: 'calls/monday-0930.wav' });
      assert.equal(named.statusCode, 202, named.body);
      assert.equal(named.json<{ filename: string }>().filename, 'monday-0930.wav');
      const twice = multipart({}, { content: audio, filename: 'call.wav', contentType: 'audio/wav' });
      const payload = Buffer.from(twice.payload.toString('latin1').replace(/^(--[^\r]+)\r\n/, '$1\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n{"a":1}\r\n$1\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n{"a":2}\r\n$1\r\n'), 'latin1');
      const sentTwice = await hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, payload, headers: twice.headers });
      assert.deepEqual(errorsOf(assertProblem(sentTwice, 400, 'validation_failed')), ['metadata: is sent more than once']);
      assert.equal(await recordingCount(), 2, 'the recordings kept by the tests before, and the named one');
    });

    test('a route that takes no body refuses one with fields', async () => {
      const retry = await hark.request({ method: 'POST', url: `${P}/transcription-runs/trn-00000000-0000-7000-8000-000000000000/retry`, key: account.key, payload: { force: true } });
      assert.deepEqual(errorsOf(assertProblem(retry, 400, 'validation_failed')), ['force: is not a field of this request (it takes no body)']);
      const bare = await hark.request({ method: 'POST', url: `${P}/transcription-runs/trn-00000000-0000-7000-8000-000000000000/retry`, key: account.key });
      assertProblem(bare, 404, 'not_found');
      assertProblem(await hark.request({ method: 'POST', url: `${P}/no-such-thing`, key: account.key, payload: { a: 1 } }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, payload: { file: 'x' } }), 415, 'unsupported_media_type');
      // A form where no form is read is a 415 as any body not JSON: not acted on by a route that takes no body, nor a schema error.
      const form = multipart({ x: '1' }, { content: audio, filename: 'call.wav', contentType: 'audio/wav' });
      const sent = (url: string) => hark.request({ method: 'POST', url, key: account.key, payload: form.payload, headers: form.headers });
      assertProblem(await sent(`${P}/transcription-runs/trn-00000000-0000-7000-8000-000000000000/cancel`), 415, 'unsupported_media_type');
      assertProblem(await sent(`${P}/recordings/import`), 415, 'unsupported_media_type');
      assertProblem(await sent(`${P}/api-keys`), 415, 'unsupported_media_type');
    });

    test('names are trimmed and never blank where they are made, as where they are changed; a file name given too long is refused', async () => {
      const blank = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'blank@example.com', password: 'a long enough password', workspace_name: '   ' } });
      assert.deepEqual(errorsOf(assertProblem(blank, 400, 'validation_failed')), ['workspace_name: must not be blank']);
      const again = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'blank@example.com', password: 'a long enough password', workspace_name: '  Support  ' } });
      assert.equal(again.statusCode, 201, 'nothing was kept of the refused registration');
      const workspace = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${again.json<{ workspace_id: string }>().workspace_id}`, key: again.json<{ api_key: string }>().api_key });
      assert.equal(workspace.json<{ name: string }>().name, 'Support');
      const key = await hark.request({ method: 'POST', url: `${P}/api-keys`, key: account.key, payload: { name: ' \t ', scopes: ['recordings:read'] } });
      assert.deepEqual(errorsOf(assertProblem(key, 400, 'validation_failed')), ['name: must not be blank']);
      // The name given is kept or refused, never cut; a file's own name too long is cut before its extension.
      assert.deepEqual(errorsOf(assertProblem(await upload({ filename: `${'f'.repeat(400)}.wav` }), 400, 'validation_failed')), ['filename: must NOT have more than 255 characters']);
      const long = multipart({}, { content: audio, filename: `${'g'.repeat(400)}.wav`, contentType: 'audio/wav' });
      const cut = await hark.request({ method: 'POST', url: `${P}/recordings`, key: account.key, payload: long.payload, headers: long.headers });
      assert.equal(cut.statusCode, 202, cut.body);
      const filename = cut.json<{ filename: string }>().filename;
      assert.deepEqual([filename.length, filename.endsWith('g.wav')], [255, true]);
      await hark.request({ method: 'DELETE', url: `${P}/recordings/${cut.json<{ id: string }>().id}`, key: account.key });
    });

    test('a workspace id that is no id at all is 404; a well-formed one of another workspace is 403', async () => {
      assertProblem(await hark.request({ method: 'GET', url: '/api/v1/workspaces/garbage/recordings', key: account.key }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'GET', url: '/api/v1/workspaces/ws-00000000-0000-7000-8000-000000000000/recordings', key: account.key }), 403, 'forbidden');
      assertProblem(await hark.request({ method: 'GET', url: '/api/v1/workspaces/garbage/recordings', key: 'hark_wrong' }), 401, 'unauthorized');
    });

    test('errors name a body field by its path, each once, and every value a field may take', async () => {
      const huge = await hark.request({ method: 'POST', url: `${P}/recordings/import`, key: account.key, payload: '{"url":"https://example.com/a.wav","retention_days":1e400}', headers: { 'content-type': 'application/json' } });
      assert.deepEqual(errorsOf(assertProblem(huge, 400, 'validation_failed')), ['retention_days: must be a finite number (1e400 is beyond what a number can hold)']);
      // An integer beyond 2^53 outside metadata is judged by its field's range (a string is no answer there), and metadata's still is refused after it.
      const big = (tail: string) => hark.request({ method: 'POST', url: `${P}/recordings/import`, key: account.key, payload: `{"url":"https://example.com/a.wav","retention_days":99999999999999999999${tail}}`, headers: { 'content-type': 'application/json' } });
      assert.deepEqual(errorsOf(assertProblem(await big(''), 400, 'validation_failed')), ['retention_days: must be an integer from 1 to 3650']);
      assert.match(errorsOf(assertProblem(await big(',"metadata":{"n":12345678901234567890}'), 400, 'validation_failed'))[0] ?? '', /^metadata\/n: 12345678901234567890 is an integer beyond .*send it as a string$/);
      // Speaker labels are by channel number: another key is refused, not dropped.
      const labels = await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: account.key, payload: { name: 'Labels', options: { speaker_labels: { 0: 'agent', abc: 'x' } } } });
      assert.deepEqual(errorsOf(assertProblem(labels, 400, 'validation_failed')).map((e) => e.split(':')[0]), ['options/speaker_labels/abc']);
      const nameless = await hark.request({ method: 'POST', url: `${P}/analysis-scenarios`, key: account.key, payload: { name: '' } });
      assert.deepEqual(errorsOf(assertProblem(nameless, 400, 'validation_failed')), ['name: must NOT have fewer than 1 characters']);
      const typed = await hark.request({ method: 'POST', url: `${P}/analysis-scenarios`, key: account.key, payload: { name: 'QA', questions: [{ id: 'q', text: 'How many?', type: 'number' }] } });
      assert.deepEqual(errorsOf(assertProblem(typed, 400, 'validation_failed')), ['questions/0/type: must be one of: boolean, text']);
    });

    test("an import's file name keeps its last part only", async () => {
      const imported = await hark.request({ method: 'POST', url: `${P}/recordings/import`, key: account.key, payload: { url: 'https://example.com/a.wav', filename: '../../calls\\2026/monday.wav' } });
      assert.equal(imported.statusCode, 202, imported.body);
      assert.equal(imported.json<{ filename: string }>().filename, 'monday.wav');
    });

    test("an execution's idempotency key may come as the Idempotency-Key header; both must agree, and one is needed", async () => {
      const recordingId = (await upload({})).json<{ id: string }>().id;
      const scenarios = await hark.request({ method: 'GET', url: `${P}/transcription-scenarios`, key: account.key });
      const scenarioId = scenarios.json<{ data: { id: string }[] }>().data[0]!.id;
      const execute = (headers: Record<string, string>, body: Record<string, unknown>) => hark.request({ method: 'POST', url: `${P}/transcription-scenarios/${scenarioId}/executions`, key: account.key, headers, payload: { recording_ids: [recordingId], ...body } });
      const first = await execute({ 'idempotency-key': 'nightly-1' }, {});
      assert.equal(first.statusCode, 202, first.body);
      assert.equal(first.json<{ idempotency_key: string }>().idempotency_key, 'nightly-1');
      const again = await execute({ 'idempotency-key': 'nightly-1' }, {});
      assert.equal(again.statusCode, 200);
      assert.equal(again.json<{ id: string }>().id, first.json<{ id: string }>().id);
      const sameInBoth = await execute({ 'idempotency-key': 'nightly-1' }, { idempotency_key: 'nightly-1' });
      assert.equal(sameInBoth.json<{ id: string }>().id, first.json<{ id: string }>().id);
      assert.deepEqual(errorsOf(assertProblem(await execute({ 'idempotency-key': 'nightly-1' }, { idempotency_key: 'nightly-2' }), 400, 'validation_failed')), ['idempotency_key: differs from the Idempotency-Key header: send the key once, or the same in both']);
      assert.deepEqual(errorsOf(assertProblem(await execute({}, {}), 400, 'validation_failed')), ['idempotency_key: is required: in the body, or as an Idempotency-Key header']);
      // A key in UTF-8 is the same key in the header (its bytes as they come over the wire) as in the body.
      const accented = await execute({ 'idempotency-key': Buffer.from('nuit-é').toString('latin1') }, {});
      assert.equal(accented.statusCode, 202, accented.body);
      assert.equal(accented.json<{ idempotency_key: string }>().idempotency_key, 'nuit-é');
      assert.equal((await execute({}, { idempotency_key: 'nuit-é' })).json<{ id: string }>().id, accented.json<{ id: string }>().id);
      // Sent in Latin-1 (as Python's http.client and browsers write é), it is the same key too.
      assert.equal((await execute({ 'idempotency-key': 'nuit-\u00e9' }, {})).json<{ id: string }>().id, accented.json<{ id: string }>().id);
      // Sent twice, it is refused rather than joined into a third key.
      const twice = await hark.request({ method: 'POST', url: `${P}/transcription-scenarios/${scenarioId}/executions`, key: account.key, headers: { 'idempotency-key': ['a1', 'a2'] as unknown as string }, payload: { recording_ids: [recordingId] } });
      assert.deepEqual(errorsOf(assertProblem(twice, 400, 'validation_failed')), ['Idempotency-Key: is sent more than once: send one key']);
    });
  });
}
