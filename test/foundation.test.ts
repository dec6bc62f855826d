// Accounts, keys, auth rules, errors, rate limits and the OpenAPI document, over HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { operationIds } from '../src/http/operation-ids.ts';
import { forgetCachedKeys } from '../src/features/access/api-keys.ts';
import { assertProblem, backends, eventually, registerAccount, startHark, type Hark } from './helpers/harness.ts';

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
      const keys = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${account.workspaceId}/api-keys`, key: account.key });
      assert.equal(keys.statusCode, 200);
      const [card] = keys.json<{ data: { scopes: string[]; key?: string }[] }>().data;
      assert.equal(card?.scopes.length, 10);
      assert.equal(card?.key, undefined, 'a listed key shows no secret');
    });

    test('a duplicate email is refused with 409 and a bad body with 400', async () => {
      const body = { email: 'Dup@Example.com', password: 'long enough pw', workspace_name: 'A' };
      assert.equal((await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: body })).statusCode, 201);
      const again = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { ...body, email: 'dup@example.com' } });
      assertProblem(again, 409, 'email_taken');
      const bad = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email: 'nope', password: 'x' } });
      const problem = assertProblem(bad, 400, 'validation_failed');
      assert.ok(Array.isArray(problem.errors) && problem.errors.length >= 2);
    });

    test('401 without a key, with an unknown key and with an expired key', async () => {
      const account = await registerAccount(hark);
      const url = `/api/v1/workspaces/${account.workspaceId}/api-keys`;
      for (const key of [undefined, 'hark_not-a-real-key', 'garbage']) {
        const response = await hark.request({ method: 'GET', url, ...(key ? { key } : {}) });
        assertProblem(response, 401, 'unauthorized');
        assert.match(String(response.headers['www-authenticate']), /^Bearer/);
      }
      const created = await hark.request({ method: 'POST', url, key: account.key, payload: { name: 'short', scopes: ['keys:manage'], expires_at: new Date(Date.now() + 60_000).toISOString() } });
      assert.equal(created.statusCode, 201);
      const { id, key } = created.json<{ id: string; key: string }>();
      assert.equal((await hark.request({ method: 'GET', url, key })).statusCode, 200);
      // A key in use says when it was last used (written in the background, at most once a minute).
      await eventually(async () => {
        const listed = (await hark.request({ method: 'GET', url, key })).json<{ data: { id: string; last_used_at: string | null }[] }>().data;
        return listed.find((k) => k.id === id)?.last_used_at;
      }, 5000, 'last_used_at');
      // Stands in for the passing of time (no route changes a key's expiry): the cached key is
      // forgotten as after its cache period.
      await hark.runtime.ctx.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', id).execute();
      forgetCachedKeys(hark.runtime.ctx);
      assertProblem(await hark.request({ method: 'GET', url, key }), 401, 'unauthorized');
    });

    test('403 on another workspace, 404 for another workspace\'s resource, 403 naming a missing scope', async () => {
      const alice = await registerAccount(hark);
      const bob = await registerAccount(hark);
      const other = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${bob.workspaceId}/api-keys`, key: alice.key });
      assertProblem(other, 403, 'forbidden');

      const bobKeys = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${bob.workspaceId}/api-keys`, key: bob.key });
      const bobKeyId = bobKeys.json<{ data: { id: string }[] }>().data[0]?.id;
      const cross = await hark.request({ method: 'DELETE', url: `/api/v1/workspaces/${alice.workspaceId}/api-keys/${bobKeyId}`, key: alice.key });
      assertProblem(cross, 404, 'not_found');
      assertProblem(await hark.request({ method: 'DELETE', url: `/api/v1/workspaces/${alice.workspaceId}/api-keys/not-an-id`, key: alice.key }), 404, 'not_found');

      const limited = await hark.request({
        method: 'POST',
        url: `/api/v1/workspaces/${alice.workspaceId}/api-keys`,
        key: alice.key,
        payload: { name: 'reader', scopes: ['recordings:read'] },
      });
      const readerKey = limited.json<{ key: string }>().key;
      const keysOnly = (await hark.request({ method: 'POST', url: `/api/v1/workspaces/${alice.workspaceId}/api-keys`, key: alice.key, payload: { name: 'k', scopes: ['keys:manage'] } })).json<{ key: string }>().key;
      const escalation = await hark.request({ method: 'POST', url: `/api/v1/workspaces/${alice.workspaceId}/api-keys`, key: keysOnly, payload: { name: 'more', scopes: ['keys:manage', 'recordings:write'] } });
      assert.match(String(assertProblem(escalation, 403, 'insufficient_scope').detail), /recordings:write/);
      const refused = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${alice.workspaceId}/api-keys`, key: readerKey });
      const problem = assertProblem(refused, 403, 'insufficient_scope');
      assert.match(String(problem.detail), /keys:manage/);
    });

    test('a deleted key stops working at once', async () => {
      const account = await registerAccount(hark);
      const url = `/api/v1/workspaces/${account.workspaceId}/api-keys`;
      const created = await hark.request({ method: 'POST', url, key: account.key, payload: { name: 'temp', scopes: ['keys:manage'] } });
      const { id, key } = created.json<{ id: string; key: string }>();
      assert.equal((await hark.request({ method: 'GET', url, key })).statusCode, 200);
      assert.equal((await hark.request({ method: 'DELETE', url: `${url}/${id}`, key: account.key })).statusCode, 204);
      assertProblem(await hark.request({ method: 'GET', url, key }), 401, 'unauthorized');
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
      assert.equal((await hark.request({ method: 'GET', url: '/healthz' })).statusCode, 200);
      const ready = await hark.request({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.equal(ready.json<{ status: string }>().status, 'ready');
    });
  });

  describe(`rate limiting on ${backend}`, () => {
    let hark: Hark;
    before(async () => {
      hark = await startHark({ backend, env: { HARK_RATE_LIMIT_PER_MINUTE: '3' } });
    });
    after(() => hark.destroy());

    test('RateLimit headers on every answer, 429 with Retry-After past the limit', async () => {
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
