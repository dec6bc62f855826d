// Browser sessions, workspaces and members over HTTP: sign-in sets an HttpOnly cookie; writes with
// the cookie need the CSRF token and this origin; roles map onto scopes; removing a member ends
// their access at once; sessions end on sign-out, on a new password and when idle.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { multipart, speech } from './helpers/audio.ts';
import { createLogger } from '../src/logger.ts';
import { assertProblem, backends, oneBackend, startHark, type Hark } from './helpers/harness.ts';

const PASSWORD = 'correct horse battery';

interface Browser {
  cookie: string;
  csrf: string;
  accountId: string;
  email: string;
  workspaceId: string;
}

function sessionCookie(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie']].flat().find((c) => c?.startsWith('hark_session='));
  assert.ok(header, `a session cookie: ${JSON.stringify(response.headers['set-cookie'])}`);
  return header.split(';')[0]!;
}

for (const backend of await backends()) {
  describe(`sessions, workspaces and members (${backend})`, () => {
    let hark: Hark;
    before(async () => {
      hark = await startHark({ backend, workers: false });
    });
    after(() => hark.destroy());

    async function register(): Promise<{ email: string; key: string; workspaceId: string; accountId: string }> {
      const email = `person-${randomBytes(4).toString('hex')}@example.com`;
      // Each from an address of its own: the file registers more people than one address may in a minute.
      const remoteAddress = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
      const response = await hark.request({ method: 'POST', url: '/api/v1/accounts', remoteAddress, payload: { email, password: PASSWORD, workspace_name: 'Research' } });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json<{ api_key: string; workspace_id: string; account_id: string }>();
      return { email, key: body.api_key, workspaceId: body.workspace_id, accountId: body.account_id };
    }

    async function signIn(email: string, password = PASSWORD): Promise<Browser> {
      const response = await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: email.toUpperCase(), password } });
      assert.equal(response.statusCode, 201, response.body);
      const body = response.json<{ csrf_token: string; account: { id: string }; workspaces: { id: string }[] }>();
      return { cookie: sessionCookie(response), csrf: body.csrf_token, accountId: body.account.id, email, workspaceId: body.workspaces[0]!.id };
    }

    const as = (browser: Browser, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      hark.request({
        method,
        url,
        headers: { cookie: browser.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': browser.csrf, origin: 'http://localhost:80' }), host: 'localhost:80', ...headers },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });

    test('sign-in sets an HttpOnly SameSite=Lax cookie; wrong passwords are refused, then throttled', async () => {
      const person = await register();
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: person.email, password: 'wrong password' } }), 401, 'invalid_credentials');
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: 'nobody@example.com', password: 'wrong password' } }), 401, 'invalid_credentials');
      const response = await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: person.email, password: PASSWORD } });
      assert.equal(response.statusCode, 201);
      const header = [response.headers['set-cookie']].flat().find((c) => c?.startsWith('hark_session='))!;
      assert.match(header, /HttpOnly/i);
      assert.match(header, /SameSite=Lax/i);
      assert.doesNotMatch(header, /Secure/i, 'plain HTTP: no Secure flag');
      const browser = { ...(await signIn(person.email)) };
      const me = (await as(browser, 'GET', '/api/v1/sessions/current')).json<{ account: { email: string }; workspaces: { id: string; role: string; trial_days_left: number }[] }>();
      assert.equal(me.account.email, person.email);
      assert.deepEqual(me.workspaces.map((w) => [w.id, w.role, w.trial_days_left]), [[person.workspaceId, 'owner', 7]]);

    });

    test('failed sign-ins slow the address that made them, never the owner signing in from elsewhere; an owner sees them', async () => {
      const person = await register();
      const attacker = '203.0.113.7';
      const signInFrom = (remoteAddress: string, password: string) => hark.request({ method: 'POST', url: '/api/v1/sessions', remoteAddress, payload: { email: person.email, password } });
      for (let i = 0; i < 3; i++) assertProblem(await signInFrom(attacker, `wrong ${i}`), 401, 'invalid_credentials');
      const slowed = await signInFrom(attacker, 'wrong 3');
      assertProblem(slowed, 429, 'rate_limited');
      assert.ok(Number(slowed.headers['retry-after']) > 0, 'Retry-After says how long');
      assertProblem(await signInFrom(attacker, PASSWORD), 429, 'rate_limited');
      // The owner, from an address that has not failed, signs in at once, however many times the attacker tries.
      for (let i = 0; i < 5; i++) await signInFrom(attacker, `wrong again ${i}`);
      const owner = await signInFrom('198.51.100.20', PASSWORD);
      assert.equal(owner.statusCode, 201, owner.body);

      // The owner sees the failures against the workspace's members, by address.
      const failures = await hark.request({ method: 'GET', url: `/api/v1/workspaces/${person.workspaceId}/sign-in-failures`, key: person.key });
      assert.equal(failures.statusCode, 200, failures.body);
      const rows = failures.json<{ data: { email: string; address: string; failures: number; last_failed_at: string }[] }>().data;
      assert.deepEqual(rows.map((r) => [r.email, r.address, r.failures]), [[person.email, attacker, 3]], 'refused attempts are not counted as tried');
      const other = await register();
      assert.deepEqual((await hark.request({ method: 'GET', url: `/api/v1/workspaces/${other.workspaceId}/sign-in-failures`, key: other.key })).json<{ data: unknown[] }>().data, [], 'another workspace sees none of them');
    });

    test('wrong passwords sent at once are counted together: no more than three are tried', async () => {
      const person = await register();
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: person.email, password: `wrong ${i}` } })),
      );
      const statuses = responses.map((response) => response.statusCode);
      assert.ok(statuses.filter((status) => status === 401).length <= 3, `tried: ${statuses.join(' ')}`);
      assert.ok(statuses.filter((status) => status === 429).length >= 9, `throttled: ${statuses.join(' ')}`);
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: person.email, password: PASSWORD } }), 429, 'rate_limited');
    });

    test('a session reads and writes its workspace; writes need the CSRF token and this origin', async () => {
      const person = await register();
      const browser = await signIn(person.email);
      const P = `/api/v1/workspaces/${person.workspaceId}`;
      assert.equal((await as(browser, 'GET', `${P}/recordings`)).statusCode, 200);
      const scenario = { name: 'Greeting', questions: [{ text: 'Did the agent greet the customer?', type: 'boolean' }] };
      assertProblem(await as(browser, 'POST', `${P}/analysis-scenarios`, scenario, { 'x-csrf-token': '' }), 403, 'csrf_failed');
      assertProblem(await as(browser, 'POST', `${P}/analysis-scenarios`, scenario, { 'x-csrf-token': 'forged' }), 403, 'csrf_failed');
      assertProblem(await as(browser, 'POST', `${P}/analysis-scenarios`, scenario, { origin: 'https://evil.example' }), 403, 'csrf_failed');
      assert.equal((await as(browser, 'POST', `${P}/analysis-scenarios`, scenario)).statusCode, 201);
      // An upload is a write like any other.
      const form = multipart({ metadata: '{"agent":"ana"}' }, { content: (await import('node:fs')).readFileSync(speech('Hello there.')), filename: 'hello.wav', contentType: 'audio/wav' });
      const uploaded = await hark.request({ method: 'POST', url: `${P}/recordings`, payload: form.payload, headers: { ...form.headers, cookie: browser.cookie, 'x-csrf-token': browser.csrf } });
      assert.equal(uploaded.statusCode, 202, uploaded.body);
      // Routes outside a workspace (the OpenAI-compatible ones) take API keys only.
      assertProblem(await as(browser, 'GET', '/v1/files/fl-00000000-0000-0000-0000-000000000000'), 401, 'unauthorized');
      // Another workspace is not the account's.
      const stranger = await register();
      assertProblem(await as(browser, 'GET', `/api/v1/workspaces/${stranger.workspaceId}/recordings`), 403, 'not_a_member');
    });

    test('an account creates, lists and renames workspaces; an API key cannot create one', async () => {
      const person = await register();
      const browser = await signIn(person.email);
      const created = await as(browser, 'POST', '/api/v1/workspaces', { name: 'Sales calls' });
      assert.equal(created.statusCode, 201, created.body);
      const workspace = created.json<{ id: string; role: string; trial_days_left: number }>();
      assert.equal(workspace.role, 'owner');
      assert.equal(workspace.trial_days_left, 7);
      const list = (await as(browser, 'GET', '/api/v1/workspaces')).json<{ data: { id: string; name: string }[] }>().data;
      assert.deepEqual(list.map((w) => w.name), ['Research', 'Sales calls']);
      const renamed = await as(browser, 'PATCH', `/api/v1/workspaces/${workspace.id}`, { name: 'Sales', default_retention_days: 3 });
      assert.equal(renamed.json<{ name: string; default_retention_days: number }>().name, 'Sales');
      // What an empty retention means and the range taken, as the card says them (the server's: 7 days, 1 to 3650).
      assert.deepEqual(renamed.json<{ retention: unknown }>().retention, { default_days: 3, server_default_days: 7, min_days: 1, max_days: 3650 });
      assertProblem(await as(browser, 'PATCH', `/api/v1/workspaces/${workspace.id}`, { default_retention_days: 3651 }), 400, 'validation_failed');
      // Call-recording rules often ask for years: up to ten by default.
      assert.equal((await as(browser, 'PATCH', `/api/v1/workspaces/${workspace.id}`, { default_retention_days: 5 * 365 })).json<{ default_retention_days: number }>().default_retention_days, 1825);
      await as(browser, 'PATCH', `/api/v1/workspaces/${workspace.id}`, { default_retention_days: 3 });
      // The new workspace has its default scenarios, and its default retention applies to uploads.
      const scenarios = (await as(browser, 'GET', `/api/v1/workspaces/${workspace.id}/transcription-scenarios`)).json<{ data: unknown[] }>().data;
      assert.equal(scenarios.length, 1);
      const form = multipart({}, { content: (await import('node:fs')).readFileSync(speech('Hello there.')), filename: 'hello.wav', contentType: 'audio/wav' });
      const uploaded = await hark.request({ method: 'POST', url: `/api/v1/workspaces/${workspace.id}/recordings`, payload: form.payload, headers: { ...form.headers, cookie: browser.cookie, 'x-csrf-token': browser.csrf } });
      assert.equal(uploaded.json<{ retention_days: number }>().retention_days, 3);

      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/workspaces', headers: { authorization: `Bearer ${person.key}` }, payload: { name: 'x' } }), 403, 'account_required');
      const byKey = (await hark.request({ method: 'GET', url: '/api/v1/workspaces', headers: { authorization: `Bearer ${person.key}` } })).json<{ data: { id: string; role: null }[] }>().data;
      assert.deepEqual(byKey.map((w) => [w.id, w.role]), [[person.workspaceId, null]]);
    });

    test('roles map onto scopes; a removed member loses access at once; a workspace keeps an owner', async () => {
      const owner = await register();
      const colleague = await register();
      const ownerBrowser = await signIn(owner.email);
      const P = `/api/v1/workspaces/${owner.workspaceId}`;
      assertProblem(await as(ownerBrowser, 'POST', `${P}/members`, { email: 'nobody@example.com', role: 'viewer' }), 404, 'not_found');
      const added = await as(ownerBrowser, 'POST', `${P}/members`, { email: colleague.email, role: 'viewer' });
      assert.equal(added.statusCode, 201, added.body);
      assertProblem(await as(ownerBrowser, 'POST', `${P}/members`, { email: colleague.email, role: 'viewer' }), 409, 'already_member');

      const viewer = await signIn(colleague.email);
      const theirs = (await as(viewer, 'GET', '/api/v1/workspaces')).json<{ data: { id: string; role: string }[] }>().data;
      assert.deepEqual(theirs.map((w) => w.role).sort(), ['owner', 'viewer']);
      assert.equal((await as(viewer, 'GET', `${P}/recordings`)).statusCode, 200);
      assertProblem(await as(viewer, 'POST', `${P}/analysis-scenarios`, { name: 'x' }), 403, 'insufficient_role');
      assertProblem(await as(viewer, 'GET', `${P}/api-keys`), 403, 'insufficient_role');

      await as(ownerBrowser, 'PATCH', `${P}/members/${colleague.accountId}`, { role: 'member' });
      assert.equal((await as(viewer, 'POST', `${P}/analysis-scenarios`, { name: 'x' })).statusCode, 201, 'a member writes');
      assertProblem(await as(viewer, 'POST', `${P}/api-keys`, { name: 'k', scopes: ['recordings:read'] }), 403, 'insufficient_role');
      assertProblem(await as(viewer, 'POST', `${P}/members`, { email: owner.email, role: 'owner' }), 403, 'insufficient_role');

      assert.equal((await as(ownerBrowser, 'DELETE', `${P}/members/${colleague.accountId}`)).statusCode, 204);
      assertProblem(await as(viewer, 'GET', `${P}/recordings`), 403, 'not_a_member');
      assertProblem(await as(ownerBrowser, 'DELETE', `${P}/members/${owner.accountId}`), 409, 'last_owner');
      assertProblem(await as(ownerBrowser, 'PATCH', `${P}/members/${owner.accountId}`, { role: 'viewer' }), 409, 'last_owner');
    });

    test("a person's keys grant no more than their role now: demoted, they lose what the role lost; removed, their keys stop", async () => {
      const owner = await register();
      const ownerBrowser = await signIn(owner.email);
      const colleague = await register();
      const P = `/api/v1/workspaces/${owner.workspaceId}`;
      assert.equal((await as(ownerBrowser, 'POST', `${P}/members`, { email: colleague.email, role: 'owner' })).statusCode, 201);
      const colleagueBrowser = { ...(await signIn(colleague.email)), workspaceId: owner.workspaceId };
      const made = await as(colleagueBrowser, 'POST', `${P}/api-keys`, { name: 'mine', scopes: ['recordings:read', 'keys:manage'] });
      assert.equal(made.statusCode, 201, made.body);
      const { key, created_by: createdBy } = made.json<{ key: string; created_by: string | null }>();
      assert.equal(createdBy, colleague.accountId);
      // A key made by that key answers to the same person.
      const child = (await hark.request({ method: 'POST', url: `${P}/api-keys`, key, payload: { name: 'child', scopes: ['recordings:read'] } })).json<{ key: string; created_by: string }>();
      assert.equal(child.created_by, colleague.accountId);

      // Demoted to viewer: reading still works, managing keys and people does not (no way back to owner).
      assert.equal((await as(ownerBrowser, 'PATCH', `${P}/members/${colleague.accountId}`, { role: 'viewer' })).statusCode, 200);
      assert.equal((await hark.request({ url: `${P}/recordings`, key })).statusCode, 200);
      assertProblem(await hark.request({ url: `${P}/api-keys`, key }), 403, 'insufficient_scope');
      assertProblem(await hark.request({ method: 'PATCH', url: `${P}/members/${colleague.accountId}`, key, payload: { role: 'owner' } }), 403, 'insufficient_scope');
      // The owner's own registration key, demoted by a co-owner, is bounded the same way.
      assert.equal((await as(ownerBrowser, 'PATCH', `${P}/members/${colleague.accountId}`, { role: 'owner' })).statusCode, 200);
      assert.equal((await hark.request({ url: `${P}/api-keys`, key })).statusCode, 200, 'an owner again: the key manages keys again');
      assert.equal((await as(colleagueBrowser, 'PATCH', `${P}/members/${owner.accountId}`, { role: 'member' })).statusCode, 200);
      assertProblem(await hark.request({ method: 'POST', url: `${P}/api-keys`, key: owner.key, payload: { name: 'x', scopes: ['keys:manage'] } }), 403, 'insufficient_scope');
      assert.equal((await hark.request({ method: 'POST', url: `${P}/transcription-scenarios`, key: owner.key, payload: { name: 'still a member' } })).statusCode, 201);

      // Removed: every key they made is deleted; added again, they get none of them back.
      assert.equal((await as(colleagueBrowser, 'DELETE', `${P}/members/${owner.accountId}`)).statusCode, 204);
      assertProblem(await hark.request({ url: `${P}/recordings`, key: owner.key }), 401, 'unauthorized');
      assert.equal((await as(colleagueBrowser, 'POST', `${P}/members`, { email: owner.email, role: 'owner' })).statusCode, 201);
      assertProblem(await hark.request({ url: `${P}/recordings`, key: owner.key }), 401, 'unauthorized');
      assert.equal((await hark.request({ url: `${P}/recordings`, key })).statusCode, 200, "the remaining owner's keys work");
      assert.equal((await hark.request({ url: `${P}/recordings`, key: child.key })).statusCode, 200);
    });

    test('a registration key made before keys named their maker answers to its account once migrated', async () => {
      const owner = await register();
      const db = hark.runtime.ctx.db;
      await db.updateTable('api_keys').set({ created_by: null }).where('workspace_id', '=', owner.workspaceId).execute();
      const migration = fs.readFileSync(new URL('../src/platform/db/migrations/038-key-creators.sql', import.meta.url), 'utf8');
      await sql.raw(migration.slice(migration.indexOf('UPDATE api_keys'))).execute(db);
      const keys = await db.selectFrom('api_keys').select(['name', 'created_by']).where('workspace_id', '=', owner.workspaceId).execute();
      assert.deepEqual(keys, [{ name: 'Registration key', created_by: owner.accountId }]);
    });

    test('a key made by a key goes with it: it expires no later, and is revoked with it', async () => {
      const owner = await register();
      const P = `/api/v1/workspaces/${owner.workspaceId}`;
      const soon = new Date(Date.now() + 3600_000).toISOString();
      const parent = (await hark.request({ method: 'POST', url: `${P}/api-keys`, key: owner.key, payload: { name: 'short', scopes: ['recordings:read', 'keys:manage'], expires_at: soon } })).json<{ id: string; key: string }>();
      const child = await hark.request({ method: 'POST', url: `${P}/api-keys`, key: parent.key, payload: { name: 'child', scopes: ['recordings:read'] } });
      assert.equal(child.statusCode, 201, child.body);
      assert.equal(new Date(child.json<{ expires_at: string }>().expires_at).toISOString(), soon, "without an expiry of its own, the maker's");
      const later = new Date(Date.now() + 7200_000).toISOString();
      assertProblem(await hark.request({ method: 'POST', url: `${P}/api-keys`, key: parent.key, payload: { name: 'longer', scopes: ['recordings:read'], expires_at: later } }), 400, 'validation_failed');
      assert.equal((await hark.request({ url: `${P}/recordings`, key: child.json<{ key: string }>().key })).statusCode, 200);
      assert.equal((await hark.request({ method: 'DELETE', url: `${P}/api-keys/${parent.id}`, key: owner.key })).statusCode, 204);
      assertProblem(await hark.request({ url: `${P}/recordings`, key: child.json<{ key: string }>().key }), 401, 'unauthorized');
      const left = (await hark.request({ url: `${P}/api-keys`, key: owner.key })).json<{ data: { name: string }[] }>().data.map((k) => k.name);
      assert.deepEqual(left, ['Registration key']);
    });

    test("an invitation is as good as its sender's role when it is accepted", async () => {
      const owner = await register();
      const ownerBrowser = await signIn(owner.email);
      const sender = await register();
      const P = `/api/v1/workspaces/${owner.workspaceId}`;
      await as(ownerBrowser, 'POST', `${P}/members`, { email: sender.email, role: 'owner' });
      const senderBrowser = { ...(await signIn(sender.email)), workspaceId: owner.workspaceId };
      const invite = async (role: string) => (await as(senderBrowser, 'POST', `${P}/invitations`, { email: `to-${randomBytes(4).toString('hex')}@example.com`, role })).json<{ token: string }>().token;
      const asOwner = await invite('owner');
      const asMember = await invite('member');
      // Demoted to member: the owner invitation grants nothing, the member one still does.
      await as(ownerBrowser, 'PATCH', `${P}/members/${sender.accountId}`, { role: 'member' });
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/invitations/${asOwner}` }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'POST', url: `/api/v1/invitations/${asOwner}/accept`, payload: { password: PASSWORD } }), 404, 'not_found');
      assert.equal((await hark.request({ method: 'GET', url: `/api/v1/invitations/${asMember}` })).statusCode, 200);
      // Removed: nothing they sent grants anything.
      await as(ownerBrowser, 'DELETE', `${P}/members/${sender.accountId}`);
      assertProblem(await hark.request({ method: 'POST', url: `/api/v1/invitations/${asMember}/accept`, payload: { password: PASSWORD } }), 404, 'not_found');
      const roles = (await as(ownerBrowser, 'GET', `${P}/members`)).json<{ data: { role: string }[] }>().data.map((m) => m.role);
      assert.deepEqual(roles, ['owner'], 'nobody joined');
    });

    test("an invitation to someone else's account is no way round the sign-in waits: its wrong passwords count as failed sign-ins", async () => {
      const victim = await register();
      const attacker = await register();
      const attackerBrowser = await signIn(attacker.email);
      const address = '203.0.113.9';
      const token = (await as(attackerBrowser, 'POST', `/api/v1/workspaces/${attacker.workspaceId}/invitations`, { email: victim.email, role: 'owner' })).json<{ token: string }>().token;
      const accept = (password: string) => hark.request({ method: 'POST', url: `/api/v1/invitations/${token}/accept`, remoteAddress: address, payload: { password } });
      for (let i = 0; i < 3; i++) assertProblem(await accept(`wrong guess ${i}`), 401, 'invalid_credentials');
      assertProblem(await accept('wrong guess 3'), 429, 'rate_limited');
      assertProblem(await accept(PASSWORD), 429, 'rate_limited');
      // The same waits as signing in from that address, and the victim's owner sees the failures.
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/sessions', remoteAddress: address, payload: { email: victim.email, password: PASSWORD } }), 429, 'rate_limited');
      const failures = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${victim.workspaceId}/sign-in-failures`, key: victim.key })).json<{ data: { email: string; address: string; failures: number }[] }>().data;
      assert.deepEqual(failures.map((f) => [f.email, f.address, f.failures]), [[victim.email, address, 3]]);
    });

    test('an invitation link creates the account or takes an existing one, once, and signs in', async () => {
      const owner = await register();
      const browser = await signIn(owner.email);
      const P = `/api/v1/workspaces/${owner.workspaceId}`;
      const newcomer = `new-${randomBytes(4).toString('hex')}@example.com`;
      const invited = await as(browser, 'POST', `${P}/invitations`, { email: newcomer, role: 'member' });
      assert.equal(invited.statusCode, 201, invited.body);
      const { token, url, id } = invited.json<{ token: string; url: string; id: string }>();
      assert.match(url, new RegExp(`/invite/${token}$`));
      assert.deepEqual((await as(browser, 'GET', `${P}/invitations`)).json<{ data: { id: string }[] }>().data.map((i) => i.id), [id]);

      const described = (await hark.request({ method: 'GET', url: `/api/v1/invitations/${token}` })).json<{ workspace_name: string; email: string; role: string; account_exists: boolean }>();
      assert.deepEqual([described.workspace_name, described.email, described.role, described.account_exists], ['Research', newcomer, 'member', false]);
      const accepted = await hark.request({ method: 'POST', url: `/api/v1/invitations/${token}/accept`, payload: { password: PASSWORD } });
      assert.equal(accepted.statusCode, 201, accepted.body);
      const joined = { cookie: sessionCookie(accepted), csrf: '', accountId: '', email: newcomer, workspaceId: owner.workspaceId };
      const me = (await as(joined, 'GET', '/api/v1/sessions/current')).json<{ workspaces: { id: string; role: string }[] }>();
      assert.deepEqual(me.workspaces.map((w) => [w.id, w.role]), [[owner.workspaceId, 'member']]);
      assert.equal((await signIn(newcomer)).workspaceId, owner.workspaceId, 'the new account signs in with its password');
      assertProblem(await hark.request({ method: 'POST', url: `/api/v1/invitations/${token}/accept`, payload: { password: PASSWORD } }), 404, 'not_found');
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/invitations/${token}` }), 404, 'not_found');

      // An existing account accepts with its own password, and only with it.
      const colleague = await register();
      const second = (await as(browser, 'POST', `${P}/invitations`, { email: colleague.email, role: 'viewer' })).json<{ token: string }>().token;
      assert.equal((await hark.request({ method: 'GET', url: `/api/v1/invitations/${second}` })).json<{ account_exists: boolean }>().account_exists, true);
      assertProblem(await hark.request({ method: 'POST', url: `/api/v1/invitations/${second}/accept`, payload: { password: 'not the password' } }), 401, 'invalid_credentials');
      assert.equal((await hark.request({ method: 'POST', url: `/api/v1/invitations/${second}/accept`, payload: { password: PASSWORD } })).statusCode, 201);
      // Someone already a member is not invited again (as adding them is refused).
      assertProblem(await as(browser, 'POST', `${P}/invitations`, { email: colleague.email.toUpperCase(), role: 'member' }), 409, 'already_member');
      const roles = (await as(browser, 'GET', `${P}/members`)).json<{ data: { email: string; role: string }[] }>().data;
      assert.deepEqual(roles.map((m) => m.role).sort(), ['member', 'owner', 'viewer']);

      // Revoked links are dead; members cannot invite.
      const third = (await as(browser, 'POST', `${P}/invitations`, { email: 'x@example.com', role: 'viewer' })).json<{ token: string; id: string }>();
      assert.equal((await as(browser, 'DELETE', `${P}/invitations/${third.id}`)).statusCode, 204);
      assertProblem(await hark.request({ method: 'GET', url: `/api/v1/invitations/${third.token}` }), 404, 'not_found');
      const member = await signIn(newcomer);
      assertProblem(await as(member, 'POST', `${P}/invitations`, { email: 'y@example.com', role: 'owner' }), 403, 'insufficient_role');
    });

    test('a caller grants no more than it holds: a keys:manage key cannot make an owner by invitation or membership', async () => {
      const owner = await register();
      const colleague = await register();
      const P = `/api/v1/workspaces/${owner.workspaceId}`;
      const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
      const minted = await hark.request({ method: 'POST', url: `${P}/api-keys`, headers: bearer(owner.key), payload: { name: 'admin only', scopes: ['keys:manage'] } });
      assert.equal(minted.statusCode, 201, minted.body);
      const narrow = bearer(minted.json<{ key: string }>().key);

      for (const role of ['owner', 'member', 'viewer']) {
        assertProblem(await hark.request({ method: 'POST', url: `${P}/invitations`, headers: narrow, payload: { email: 'someone@example.com', role } }), 403, 'insufficient_scope');
        assertProblem(await hark.request({ method: 'POST', url: `${P}/members`, headers: narrow, payload: { email: colleague.email, role } }), 403, 'insufficient_scope');
      }
      assertProblem(await hark.request({ method: 'POST', url: `${P}/api-keys`, headers: narrow, payload: { name: 'wider', scopes: ['keys:manage', 'recordings:read'] } }), 403, 'insufficient_scope');
      assert.equal((await hark.request({ method: 'GET', url: `${P}/members`, headers: bearer(owner.key) })).json<{ data: unknown[] }>().data.length, 1, 'nobody was added');
      assert.equal((await hark.request({ method: 'GET', url: `${P}/invitations`, headers: bearer(owner.key) })).json<{ data: unknown[] }>().data.length, 0, 'nobody was invited');
      // The people's addresses are the managers': a key without keys:manage cannot list them.
      const reader = await hark.request({ method: 'POST', url: `${P}/api-keys`, headers: bearer(owner.key), payload: { name: 'reader', scopes: ['recordings:read', 'reports:read'] } });
      assertProblem(await hark.request({ method: 'GET', url: `${P}/members`, headers: bearer(reader.json<{ key: string }>().key) }), 403, 'insufficient_scope');
      assert.equal((await hark.request({ method: 'GET', url: `${P}/members`, headers: narrow })).statusCode, 200);

      // Nor can it demote or remove an owner it could not have made.
      assert.equal((await hark.request({ method: 'POST', url: `${P}/members`, headers: bearer(owner.key), payload: { email: colleague.email, role: 'owner' } })).statusCode, 201);
      assertProblem(await hark.request({ method: 'PATCH', url: `${P}/members/${colleague.accountId}`, headers: narrow, payload: { role: 'viewer' } }), 403, 'insufficient_scope');
      assertProblem(await hark.request({ method: 'DELETE', url: `${P}/members/${colleague.accountId}`, headers: narrow }), 403, 'insufficient_scope');

      // A key holding every scope an owner has may.
      assert.equal((await hark.request({ method: 'POST', url: `${P}/invitations`, headers: bearer(owner.key), payload: { email: 'someone@example.com', role: 'owner' } })).statusCode, 201);
      assert.equal((await hark.request({ method: 'PATCH', url: `${P}/members/${colleague.accountId}`, headers: bearer(owner.key), payload: { role: 'viewer' } })).statusCode, 200);
    });

    test('a session cannot guess its own password faster than a sign-in: wrong current passwords wait as failed sign-ins do', async () => {
      const person = await register();
      const browser = await signIn(person.email);
      const address = '203.0.113.33';
      const from = (current: string) => hark.request({ method: 'PUT', url: '/api/v1/account/password', remoteAddress: address, headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrf, origin: 'http://localhost:80', host: 'localhost:80' }, payload: { current_password: current, new_password: 'a much newer password' } });
      for (let i = 0; i < 3; i++) assertProblem(await from(`wrong ${i}`), 401, 'invalid_credentials');
      assertProblem(await from('wrong 3'), 429, 'rate_limited');
      assertProblem(await from(PASSWORD), 429, 'rate_limited');
      const failures = (await hark.request({ method: 'GET', url: `/api/v1/workspaces/${person.workspaceId}/sign-in-failures`, key: person.key })).json<{ data: { address: string; failures: number }[] }>().data;
      assert.deepEqual(failures.map((f) => [f.address, f.failures]), [[address, 3]]);
    });

    test('sessions end on sign-out, on a new password (every one of them) and when idle', async () => {
      const person = await register();
      const first = await signIn(person.email);
      const second = await signIn(person.email);
      const changed = await as(first, 'PUT', '/api/v1/account/password', { current_password: PASSWORD, new_password: 'a much newer password' });
      assert.equal(changed.statusCode, 200, changed.body);
      assertProblem(await as(second, 'GET', '/api/v1/sessions/current'), 401, 'unauthorized');
      assertProblem(await as(first, 'GET', '/api/v1/sessions/current'), 401, 'unauthorized');
      const renewed = { ...first, cookie: sessionCookie(changed), csrf: changed.json<{ csrf_token: string }>().csrf_token };
      assert.equal((await as(renewed, 'GET', '/api/v1/sessions/current')).statusCode, 200);
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email: person.email, password: PASSWORD } }), 401, 'invalid_credentials');

      const out = await as(renewed, 'DELETE', '/api/v1/sessions/current');
      assert.equal(out.statusCode, 204);
      assert.match(String(out.headers['set-cookie']), /hark_session=;/);
      assertProblem(await as(renewed, 'GET', '/api/v1/sessions/current'), 401, 'unauthorized');

      const idle = await signIn(person.email, 'a much newer password');
      await hark.runtime.ctx.db.updateTable('sessions').set({ last_seen_at: new Date(Date.now() - (hark.config.sessions.idleMinutes + 1) * 60_000) }).where('account_id', '=', person.accountId).execute();
      assertProblem(await as(idle, 'GET', '/api/v1/sessions/current'), 401, 'unauthorized');
    });
  });
}

describe('what the log keeps of a session and an invitation', () => {
  test('no password, key, cookie, CSRF token or invitation token reaches the log; the invitation URL is logged as [token]', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const [backend] = await oneBackend();
    const hark = await startHark({ backend: backend!, workers: false, log });
    try {
      const email = `logged-${randomBytes(4).toString('hex')}@example.com`;
      const registered = (await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email, password: PASSWORD, workspace_name: 'Logged' } })).json<{ api_key: string; workspace_id: string }>();
      const signedIn = await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email, password: PASSWORD } });
      const cookie = sessionCookie(signedIn);
      const csrf = signedIn.json<{ csrf_token: string }>().csrf_token;
      const invited = await hark.request({ method: 'POST', url: `/api/v1/workspaces/${registered.workspace_id}/invitations`, key: registered.api_key, payload: { email: `new-${email}`, role: 'member' } });
      assert.equal(invited.statusCode, 201, invited.body);
      const { token } = invited.json<{ token: string }>();
      assert.equal((await hark.request({ method: 'GET', url: `/api/v1/invitations/${token}` })).statusCode, 200);
      assert.equal((await hark.request({ method: 'POST', url: `/api/v1/invitations/${token}/accept`, payload: { password: 'the newcomer password' } })).statusCode, 201);
      await hark.request({ method: 'GET', url: `/invite/${token}` });
      assertProblem(await hark.request({ method: 'POST', url: '/api/v1/sessions', payload: { email, password: 'a wrong password' } }), 401, 'invalid_credentials');
      const text = lines.join('');
      assert.match(text, /"url":"\/api\/v1\/invitations\/\[token\]\/accept"/, 'the accept request is logged, without its token');
      assert.match(text, /"url":"\/invite\/\[token\]"/);
      for (const [what, secret] of Object.entries({ password: PASSWORD, 'a wrong password': 'a wrong password', 'the newcomer password': 'the newcomer password', 'API key': registered.api_key, cookie: cookie.split('=')[1]!, 'CSRF token': csrf, 'invitation token': token })) {
        assert.ok(!text.includes(secret), `the log holds the ${what}`);
      }
    } finally {
      await hark.destroy();
    }
  });
});
