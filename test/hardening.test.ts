// What a black-box probe found, each with the test that shows it fixed: a refused upload leaves its
// connection usable, a compressed body is a 415, a full disk a 507, a database outage a 503 with
// Retry-After (and nothing lost).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { multipart, speech, tone } from './helpers/audio.ts';
import { assertProblem, backends, eventually, POSTGRES_URL, registerAccount, scratchDir, startHark, type Account, type Hark } from './helpers/harness.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on `agent` (a keep-alive agent with one socket: the next request reuses it). */
function send(agent: http.Agent, url: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString() }));
    });
    // A hung connection fails the test instead of waiting for the client's own minutes.
    request.setTimeout(20_000, () => request.destroy(new Error(`no answer from ${url} within 20 s: the connection hangs`)));
    request.on('error', reject);
    request.end(options.body);
  });
}

for (const backend of await backends()) {
  describe(`hardening on ${backend}`, () => {
    let hark: Hark;
    let account: Account;
    let base: string;
    before(async () => {
      hark = await startHark({ backend, workers: false });
      account = await registerAccount(hark);
      base = await hark.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => hark.destroy());

    test('an upload refused mid-body leaves its connection usable for the next request', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const url = `${base}/api/v1/workspaces/${account.workspaceId}/recordings`;
        const auth = { authorization: `Bearer ${account.key}` };
        // 1.1 MB that is no audio: refused by the content sniff after its first bytes. (Not random
        // bytes: now and then those hold an MPEG frame header, and the sniff rightly takes them.)
        const noise = multipart({}, { content: Buffer.alloc(1_100_000, 'this is no audio, '), filename: 'noise.wav', contentType: 'audio/wav' });
        const sniffed = await send(agent, url, { method: 'POST', headers: { ...auth, ...noise.headers }, body: noise.payload });
        assert.equal(sniffed.status, 415, sniffed.body);
        assert.equal((await send(agent, `${base}/healthz`)).status, 200);

        // A second file part after a real one.
        const wav = fs.readFileSync(speech('one file is enough'));
        const twice = multipartTwoFiles(wav, randomBytes(600_000));
        const duplicate = await send(agent, url, { method: 'POST', headers: { ...auth, 'content-type': twice.contentType }, body: twice.body });
        assert.equal(duplicate.status, 400, duplicate.body);
        assert.equal((await send(agent, `${base}/healthz`)).status, 200);
        const listed = await send(agent, url, { headers: auth });
        assert.deepEqual(JSON.parse(listed.body).data, [], 'nothing was kept of either refused upload');
      } finally {
        agent.destroy();
      }
    });

    test('wrong API keys are limited per address: 429 with Retry-After past the limit, other addresses unaffected', async () => {
      const P = `/api/v1/workspaces/${account.workspaceId}/recordings`;
      const guess = (remoteAddress: string) => hark.request({ method: 'GET', url: P, remoteAddress, headers: { authorization: `Bearer hark_${randomBytes(24).toString('base64url')}` } });
      const statuses: number[] = [];
      for (let i = 0; i < 80; i++) statuses.push((await guess('192.0.2.50')).statusCode);
      assert.deepEqual([...new Set(statuses.slice(0, 60))], [401], 'the first 60 a minute are answered 401');
      assert.deepEqual([...new Set(statuses.slice(60))], [429], 'then the address waits');
      const limited = await guess('192.0.2.50');
      assertProblem(limited, 429, 'rate_limited');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assertProblem(await guess('192.0.2.51'), 401, 'unauthorized');
      assert.equal((await hark.request({ method: 'GET', url: P, remoteAddress: '192.0.2.52', key: account.key })).statusCode, 200, 'a valid key from elsewhere works');
    });

    test('a compressed body is a 415 unsupported_content_encoding, not a JSON error', async () => {
      const body = gzipSync(JSON.stringify({ name: 'x', scopes: ['recordings:read'] }));
      const response = await hark.request({
        method: 'POST',
        url: `/api/v1/workspaces/${account.workspaceId}/api-keys`,
        key: account.key,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: body,
      });
      assertProblem(response, 415, 'unsupported_content_encoding');
      assert.equal(response.headers['accept-encoding'], 'identity');
    });

    test('a full disk answers 507 insufficient_storage and keeps nothing', { skip: process.getuid?.() !== 0 && 'mounting a small file system needs root' }, async () => {
      const scratch = scratchDir(hark);
      fs.mkdirSync(scratch, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', scratch]);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // Twenty seconds of 16 kHz audio: more than the 256 KB the scratch folder holds.
        const wav = fs.readFileSync(tone(20));
        assert.ok(wav.length > 300_000, `${wav.length} bytes`);
        const form = multipart({}, { content: wav, filename: 'call.wav', contentType: 'audio/wav' });
        const url = `${base}/api/v1/workspaces/${account.workspaceId}/recordings`;
        const auth = { authorization: `Bearer ${account.key}` };
        const full = await send(agent, url, { method: 'POST', headers: { ...auth, ...form.headers }, body: form.payload });
        assert.equal(full.status, 507, full.body);
        assert.equal(JSON.parse(full.body).code, 'insufficient_storage');
        assert.equal((await send(agent, `${base}/healthz`)).status, 200, 'the connection is still usable');
        assert.deepEqual(JSON.parse((await send(agent, url, { headers: auth })).body).data, []);
        assert.deepEqual(fs.readdirSync(scratch).filter((name) => fs.statSync(`${scratch}/${name}`).isFile()), [], 'no partial file is left');
      } finally {
        agent.destroy();
        execFileSync('umount', ['-l', scratch]);
      }
    });
  });
}

for (const backend of await backends()) {
  test(`a process starting on a host removes the scratch files of this host's dead processes, and only theirs (${backend})`, async () => {
    let hark = await startHark({ backend, workers: false });
    try {
      const root = path.dirname(scratchDir(hark));
      await hark.stop();
      const host = os.hostname().replace(/[^A-Za-z0-9-]/g, '_');
      const pid1Start = fs.readFileSync('/proc/1/stat', 'utf8').split(') ')[1]!.split(' ')[19];
      const folders = {
        // A pid above any pid_max: that process is gone (killed mid-upload, say).
        dead: `${host}.9999999999.12345`,
        // pid 1 runs, but started at another time: a restarted container's pid 1 is another process.
        reused: `${host}.1.1`,
        alive: `${host}.1.${pid1Start}`,
        otherHost: 'another-host.1.1',
      };
      for (const name of Object.values(folders)) {
        fs.mkdirSync(path.join(root, name), { recursive: true });
        fs.writeFileSync(path.join(root, name, 'partial-upload'), randomBytes(1000));
      }
      hark = await hark.restart({ workers: false });
      const left = fs.readdirSync(root);
      assert.ok(!left.includes(folders.dead), 'a dead process\'s folder is removed at start');
      assert.ok(!left.includes(folders.reused), 'so is that of a process whose pid now belongs to another');
      assert.ok(left.includes(folders.alive), 'a running process keeps its files');
      assert.ok(left.includes(folders.otherHost), 'another host\'s files are left to the idle sweep');
      assert.ok(left.includes(path.basename(scratchDir(hark))));
    } finally {
      await hark.destroy();
    }
  });
}

describe('engine addresses are checked when a scenario is saved', () => {
  test('loopback, private and credentialed addresses are 400s; a remote engine needs an address; operators can switch remote engines off', async () => {
    const hark = await startHark({ backend: 'pglite', workers: false, env: { HARK_IMPORT_ALLOW_PRIVATE: '0' } });
    try {
      const account = await registerAccount(hark);
      const P = `/api/v1/workspaces/${account.workspaceId}`;
      const save = (kind: string, payload: Record<string, unknown>) => hark.request({ method: 'POST', url: `${P}/${kind}-scenarios`, key: account.key, payload });
      for (const kind of ['transcription', 'analysis']) {
        for (const base_url of ['http://127.0.0.1:8080/v1', 'http://[::1]/v1', 'http://10.1.2.3/v1', 'http://localhost:9/v1', 'http://localhost.:9/v1', 'http://api.localhost/v1', 'https://user:secret@api.example.com/v1', 'ftp://example.com/v1']) {
          const problem = assertProblem(await save(kind, { name: 'remote', engine: 'openai', model: 'm', options: { base_url } }), 400, 'validation_failed');
          assert.match(JSON.stringify(problem.errors), /base_url/, base_url);
        }
        const unset = assertProblem(await save(kind, { name: 'remote', engine: 'openai', model: 'm' }), 400, 'validation_failed');
        assert.match(String(unset.detail), /HARK_OPENAI_BASE_URL/);
      }
      assert.equal((await hark.request({ method: 'GET', url: `${P}/transcription-scenarios`, key: account.key })).json<{ data: unknown[] }>().data.length, 1, 'only the default scenario exists');

      const configured = await hark.restart({ workers: false, config: { openai: { baseUrl: 'https://llm.example.com/v1', apiKey: null } } });
      assert.equal((await configured.request({ method: 'POST', url: `${P}/analysis-scenarios`, key: account.key, payload: { name: 'operator server', engine: 'openai', model: 'm' } })).statusCode, 201, 'the operator\'s address will do');
      const off = await configured.restart({ workers: false, config: { remoteEngines: false } });
      const refused = assertProblem(await off.request({ method: 'POST', url: `${P}/analysis-scenarios`, key: account.key, payload: { name: 'x', engine: 'openai', model: 'm' } }), 400, 'validation_failed');
      assert.match(String(refused.detail), /HARK_REMOTE_ENGINES=off/);
      assert.equal((await off.request({ method: 'POST', url: `${P}/analysis-scenarios`, key: account.key, payload: { name: 'local', engine: 'basic' } })).statusCode, 201, 'local engines still work');
      await off.destroy();
    } catch (error) {
      await hark.destroy().catch(() => {});
      throw error;
    }
  });
});

/** A form with two `file` parts, the second one large enough not to be read with the first. */
function multipartTwoFiles(first: Buffer, second: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----hark${randomBytes(8).toString('hex')}`;
  const part = (content: Buffer, name: string) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: audio/wav\r\n\r\n`), content, Buffer.from('\r\n')]);
  return { body: Buffer.concat([part(first, 'a.wav'), part(second, 'b.wav'), Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

if ((await backends()).includes('postgres')) {
  describe('a database outage (PostgreSQL server mode)', () => {
    test('answers 503 database_unavailable with Retry-After while the server is away, and works again after', async () => {
      // The service reaches PostgreSQL through a relay the test can cut, as a network outage or a stopped server would.
      const target = new URL(POSTGRES_URL);
      const sockets = new Set<net.Socket>();
      const relay = net.createServer((client) => {
        const server = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, server]) {
          sockets.add(socket);
          socket.on('error', () => {});
          socket.on('close', () => sockets.delete(socket));
        }
        client.pipe(server).pipe(client);
      });
      await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
      const port = (relay.address() as net.AddressInfo).port;
      const url = new URL(POSTGRES_URL);
      url.port = String(port);
      const hark = await startHark({ backend: 'postgres', workers: false, env: { DATABASE_URL: url.toString() } });
      try {
        const account = await registerAccount(hark);
        const P = `/api/v1/workspaces/${account.workspaceId}`;
        assert.equal((await hark.request({ method: 'GET', url: `${P}/recordings`, key: account.key })).statusCode, 200);

        await new Promise<void>((resolve) => {
          relay.close(() => resolve());
          for (const socket of sockets) socket.destroy();
        });
        for (const request of [
          { method: 'GET' as const, url: `${P}/recordings` },
          { method: 'GET' as const, url: `${P}/transcription-runs` },
          { method: 'POST' as const, url: `${P}/analysis-scenarios`, payload: { name: 'during the outage' } },
        ]) {
          const response = await hark.request({ ...request, key: account.key });
          assertProblem(response, 503, 'database_unavailable');
          assert.ok(Number(response.headers['retry-after']) > 0, 'Retry-After is set');
        }
        assert.equal((await hark.request({ method: 'GET', url: '/readyz' })).statusCode, 503);

        await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
        await eventually(async () => (await hark.request({ method: 'GET', url: `${P}/recordings`, key: account.key })).statusCode === 200, 30_000, 'the service answers again');
        const scenarios = (await hark.request({ method: 'GET', url: `${P}/analysis-scenarios`, key: account.key })).json<{ data: { name: string }[] }>().data;
        assert.ok(!scenarios.some((s) => s.name === 'during the outage'), 'nothing was half-created');
      } finally {
        await hark.destroy();
        relay.close();
        for (const socket of sockets) socket.destroy();
      }
    });
  });
}
