// Accounts, keys, auth rules, errors, rate limits and the OpenAPI document, over HTTP. The
// public-API calls (creating, listing and deleting API keys, with the scopes and workspaces they
// are refused in) go through the shipped TypeScript client, every answer checked against
// openapi.json like a hand-made request's (so a call that resolves had its one documented success
// status, 201 for a new key, 204 for a deleted one, and a refusal is a complete problem+json).
// What is about HTTP itself stays hand-made: registration (made without a key, which the client
// always sends), requests without a key or with a bad, expired or deleted one (401 and
// WWW-Authenticate), malformed bodies, unknown routes and internal errors, the OpenAPI document
// and the docs page, the health probes (asked without a key) and the rate-limit headers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { operationIds } from '../src/http/operation-ids.ts';
import { forgetCachedKeys } from '../src/features/access/api-keys.ts';
import type { Answer } from '../clients/typescript/src/index.ts';
import { assertProblem, backends, eventually, registerAccount, rejectsWith, startHark, type Hark } from './helpers/harness.ts';

for (const backend of await backends()) {
  describe(`foundation on ${backend}`, () => {
    let hark: Hark;
    before(async () => {
      hark = await startHark({
        backend,
        beforeReady: (app) => {
          app.get('/test/boom', { config: { public: true }, schema: { hide: true } }, async () => {
            throw new Error('database password=hunter2 exploded at /srv/secret.ts:12');
          });
        },
      });
    });
    after(() => hark.destroy());

    test('registration returns a key with every scope that works at once', async () => {
      const account = await registerAccount(hark);
      assert.match(account.workspaceId, /^ws-[0-9a-f-]{36}$/);
      assert.match(account.key, /^hark_/);
      // 200 is the only success openapi.json gives the list. Here and below the workspace is named
      // in `path`, as the requests always named it (the client would otherwise ask for the key's).
      const [card] = (await hark.client(account.key).listApiKeys({ path: { workspace_id: account.workspaceId } })).data;
      assert.equal(card?.scopes.length, 10);
      assert.equal(card && 'key' in card ? card.key : undefined, undefined, 'a listed key shows no secret');
    });

    test('a duplicate email is refused with 409 and a bad body with 400', async () => {
      // Registration is made without a key, and the client always sends one: by hand.
      const body = { email: 'Dup@Example.com', password: 'long enough pw', workspace_name: 'A' };
      assert.equal((await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: body })).statusCode, 201);
      const again = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { ...body, email: 'dup@example.com' } });
      assertProblem(again, 409, 'email_taken');
      const bad = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'nope', password: 'x' } });
      const problem = assertProblem(bad, 400, 'validation_failed');
      assert.ok(Array.isArray(problem.errors) && problem.errors.length >= 2);
    });

    test('errors[].path names a field as the client wrote it, whichever check refused it', async () => {
      const account = await registerAccount(hark);
      const P = `/api/v1/workspaces/${account.workspaceId}`;
      const pathsOf = async (options: Parameters<Hark['request']>[0]) => ((assertProblem(await hark.request({ key: account.key, ...options }), 400, 'validation_failed').errors ?? []) as { path: string }[]).map((e) => e.path).sort();
      // The schema's checks: a body field, a missing one, one inside a list, a query parameter; the body as a whole.
      assert.deepEqual(await pathsOf({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'nope', password: 'long enough pw' } }), ['email', 'workspace_name']);
      assert.deepEqual(await pathsOf({ method: 'POST', url: `${P}/analysis-scenarios`, payload: { name: 'Q', questions: [{ id: 'a', text: '', type: 'boolean' }] } }), ['questions/0/text']);
      assert.deepEqual(await pathsOf({ method: 'GET', url: `${P}/recordings?limit=0` }), ['limit']);
      assert.deepEqual(await pathsOf({ method: 'POST', url: `${P}/api-keys`, payload: [] }), ['body']);
      // Checks made in code: the same style.
      assert.deepEqual(await pathsOf({ method: 'POST', url: `${P}/api-keys`, payload: { name: 'k', scopes: ['recordings:read'], expires_at: '2001-01-01T00:00:00Z' } }), ['expires_at']);
      assert.deepEqual(await pathsOf({ method: 'POST', url: `${P}/transcription-scenarios`, payload: { name: 'S', options: { redact_audio: true } } }), ['options/redact_audio']);
    });

    test('401 without a key, with an unknown key and with an expired key', async () => {
      const account = await registerAccount(hark);
      const workspace = { workspace_id: account.workspaceId };
      const url = `/api/v1/workspaces/${account.workspaceId}/api-keys`;
      // No key, or a key that is none: the 401 and its WWW-Authenticate header, asked by hand.
      for (const key of [undefined, 'hark_not-a-real-key', 'garbage']) {
        const response = await hark.request({ method: 'GET', url, ...(key ? { key } : {}) });
        assertProblem(response, 401, 'unauthorized');
        assert.match(String(response.headers['www-authenticate']), /^Bearer/);
      }
      // 201 and 200 are the only successes openapi.json gives a new key and the list.
      const { id, key } = await hark.client(account.key).createApiKey({ path: workspace, body: { name: 'short', scopes: ['keys:manage'], expires_at: new Date(Date.now() + 60_000).toISOString() } });
      const withKey = hark.client(key);
      await withKey.listApiKeys({ path: workspace });
      // A key in use says when it was last used (written in the background, at most once a minute).
      await eventually(async () => {
        const listed = (await withKey.listApiKeys({ path: workspace })).data;
        return listed.find((k) => k.id === id)?.last_used_at;
      }, 5000, 'last_used_at');
      // Stands in for the passing of time (no route changes a key's expiry): the cached key is
      // forgotten as after its cache period.
      await hark.runtime.ctx.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
      forgetCachedKeys(hark.runtime.ctx);
      // An expired key's 401: by hand, like the others.
      assertProblem(await hark.request({ method: 'GET', url, key }), 401, 'unauthorized');
    });

    test('403 on another workspace, 404 for another workspace\'s resource, 403 naming a missing scope', async () => {
      const alice = await registerAccount(hark);
      const bob = await registerAccount(hark);
      const asAlice = hark.client(alice.key);
      const inAlice = { workspace_id: alice.workspaceId };
      // Alice's key names Bob's workspace.
      await rejectsWith(asAlice.listApiKeys({ path: { workspace_id: bob.workspaceId } }), 403, 'forbidden');

      const bobKeyId = (await hark.client(bob.key).listApiKeys({ path: { workspace_id: bob.workspaceId } })).data[0]!.id;
      await rejectsWith(asAlice.deleteApiKey({ path: { ...inAlice, key_id: bobKeyId } }), 404, 'not_found');
      await rejectsWith(asAlice.deleteApiKey({ path: { ...inAlice, key_id: 'not-an-id' } }), 404, 'not_found');

      const readerKey = (await asAlice.createApiKey({ path: inAlice, body: { name: 'reader', scopes: ['recordings:read'] } })).key;
      const keysOnly = (await asAlice.createApiKey({ path: inAlice, body: { name: 'k', scopes: ['keys:manage'] } })).key;
      const escalation = await rejectsWith(hark.client(keysOnly).createApiKey({ path: inAlice, body: { name: 'more', scopes: ['keys:manage', 'recordings:write'] } }), 403, 'insufficient_scope');
      assert.match(escalation.detail, /recordings:write/);
      const problem = await rejectsWith(hark.client(readerKey).listApiKeys({ path: inAlice }), 403, 'insufficient_scope');
      assert.match(problem.detail, /keys:manage/);
      // Nor can it revoke a key holding more than it does (the owner's), though it may revoke its peers and itself.
      const ownerKey = (await asAlice.listApiKeys({ path: inAlice })).data.find((k) => k.scopes.includes('recordings:write'))!;
      const revoke = await rejectsWith(hark.client(keysOnly).deleteApiKey({ path: { ...inAlice, key_id: ownerKey.id } }), 403, 'insufficient_scope');
      assert.match(revoke.detail, /cannot revoke this key/);
      assert.ok((await asAlice.listApiKeys({ path: inAlice })).data.some((k) => k.id === ownerKey.id), 'the owner\'s key stays');
      const peer = await asAlice.createApiKey({ path: inAlice, body: { name: 'peer', scopes: ['keys:manage'] } });
      assert.equal(await hark.client(keysOnly).deleteApiKey({ path: { ...inAlice, key_id: peer.id } }), null);
    });

    test('a deleted key stops working at once', async () => {
      const account = await registerAccount(hark);
      const workspace = { workspace_id: account.workspaceId };
      const client = hark.client(account.key);
      const { id, key } = await client.createApiKey({ path: workspace, body: { name: 'temp', scopes: ['keys:manage'] } });
      // 200 is the only success openapi.json gives the list, 204 the only one a deletion.
      await hark.client(key).listApiKeys({ path: workspace });
      assert.equal(await client.deleteApiKey({ path: { ...workspace, key_id: id } }), null, '204, no body');
      // A deleted key's 401: by hand, like every 401.
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/api-keys`, key }), 401, 'unauthorized');
    });

    test('keys are never stored in clear', async () => {
      const account = await registerAccount(hark);
      const rows = await hark.runtime.ctx.db.selectFrom('api_keys').selectAll().where('workspace_id', '=', account.workspaceId).execute();
      assert.equal(rows.length, 1);
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes(account.key), 'the secret appears in the api_keys table');
      assert.ok(!stored.includes(account.key.slice(5)), 'the secret body appears in the api_keys table');
      const accounts = JSON.stringify(await hark.runtime.ctx.db.selectFrom('accounts').selectAll().execute());
      assert.ok(!accounts.includes('correct horse battery'), 'a password is stored in clear');
    });

    test('problem+json for malformed JSON, unknown routes and internal errors', async () => {
      const malformed = await hark.request({ method: 'POST', url: '/api/v1/accounts', headers: { 'content-type': 'application/json' }, payload: '{"email": ' });
      assertProblem(malformed, 400, 'invalid_json');
      // A byte order mark before the JSON (as Windows tools write it) is read past, and only there.
      const marked = await hark.request({ method: 'POST', url: '/api/v1/accounts', headers: { 'content-type': 'application/json' }, payload: `\uFEFF${JSON.stringify({ email: 'marked@example.com', password: 'correct horse battery', workspace_name: 'BOM' })}` });
      assert.equal(marked.statusCode, 201, marked.body);
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/accounts', headers: { 'content-type': 'application/json' }, payload: '{"email": \uFEFF"x"}' }), 400, 'invalid_json');
      const text = await hark.request({ method: 'POST', url: '/api/v1/accounts', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
      assertProblem(text, 415, 'unsupported_media_type');
      const wrongType = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'typed@example.com', password: 12345678, workspace_name: 'W' } });
      assertProblem(wrongType, 400, 'validation_failed');
      const unknown = await hark.request({ method: 'GET', url: '/api/v1/nothing-here' });
      assertProblem(unknown, 404, 'not_found');
      assert.ok(unknown.headers['x-request-id']);
      const boom = await hark.request({ method: 'GET', url: '/test/boom' });
      const problem = assertProblem(boom, 500, 'internal_error');
      assert.equal(problem.request_id, boom.headers['x-request-id']);
      assert.ok(!boom.body.includes('hunter2') && !boom.body.includes('secret.ts') && !boom.body.includes('at '), boom.body);
    });

    test('the OpenAPI document is valid OpenAPI 3.1 and documents the routes', async () => {
      // The document and the docs page are no operations of the API (the client has no method or
      // type for them): by hand, the shape below being that of an OpenAPI document, not an API answer.
      const response = await hark.request({ method: 'GET', url: '/api/v1/openapi.json' });
      assert.equal(response.statusCode, 200);
      const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
      assert.equal(document.openapi, '3.1.0');
      assert.ok(document.paths['/api/v1/accounts']);
      const result = await validate(structuredClone(document) as never);
      assert.equal(result.valid, true, JSON.stringify(result));
      assert.equal((await hark.request({ method: 'GET', url: '/api/v1/docs/' })).statusCode, 200);
      // Every operation has its own stable name, from the table (clients use them as method names).
      const ids = Object.values(document.paths).flatMap((methods) => Object.values(methods as Record<string, { operationId?: string }>).map((op) => op.operationId));
      assert.ok(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)), JSON.stringify(ids));
      assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
      assert.deepEqual(new Set(ids), new Set(Object.values(operationIds)), 'the table names exactly the documented operations');
    });

    test('health and readiness answer without a key', async () => {
      // Asked without a key, which the client always sends: by hand, the answer typed as the client's.
      assert.equal((await hark.request({ method: 'GET', url: '/healthz' })).statusCode, 200);
      const ready = await hark.request({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json<Answer<'/readyz', 'get'>>().status, 'ready');
    });
  });

  describe(`rate limiting on ${backend}`, () => {
    let hark: Hark;
    before(async () => {
      hark = await startHark({ backend, env: { HARK_RATE_LIMIT_PER_MINUTE: '3' } });
    });
    after(() => hark.destroy());

    test('RateLimit headers on every answer, 429 with Retry-After past the limit', async () => {
      // Headers, and a count of requests the client would add to (it asks for its workspace): by hand.
      const account = await registerAccount(hark);
      const url = `/api/v1/workspaces/${account.workspaceId}/api-keys`;
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await hark.request({ method: 'GET', url, key: account.key });
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['ratelimit-limit'], '3');
        remaining.push(String(response.headers['ratelimit-remaining']));
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      const limited = await hark.request({ method: 'GET', url, key: account.key });
      assertProblem(limited, 429, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) >= 1);
    });
  });
}
