// Hark serves the built web interface: the page at / and at any app path a browser opens, with a
// Content Security Policy allowing no inline script but the page's own (by its hash) and no framing; hashed assets cached for a year;
// API paths never answered with the page.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startHark, type Hark } from './helpers/harness.ts';
import { servedFile } from '../src/http/web.ts';

const script = `console.log(${JSON.stringify('hark '.repeat(2000))});`;
/** The page's own inline script (the built page asks for its first data so). */
const inline = "\n  window.early = fetch('/api/v1/sessions/current');\n";

describe('the web interface is served by Hark', () => {
  let hark: Hark;
  let webDir: string;
  before(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), `<!doctype html><title>Hark</title><script>${inline}</script><script type="module" src="/assets/index-abc123.js"></script>`);
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log("hark")');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.writeFileSync(path.join(webDir, 'assets', 'big-def456.js'), script);
    // What the web build does after bundling.
    execFileSync(process.execPath, [path.join(import.meta.dirname, '../web/scripts/compress.mjs'), webDir], { stdio: 'ignore' });
    hark = await startHark({ backend: 'pglite', workers: false, config: { webDir } });
  });
  after(async () => {
    await hark.destroy();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  const page = (url: string) => hark.request({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });

  test('the page at / and at app paths, with a strict Content Security Policy', async () => {
    for (const url of ['/', '/sign-in', '/w/ws-123/recordings/fl-1?tab=runs']) {
      const response = await page(url);
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), /text\/html/);
      assert.match(response.body, /<title>Hark<\/title>/);
      const csp = String(response.headers['content-security-policy']);
      const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
      assert.ok(csp.split('; ').includes(`script-src 'self' ${hash}`), `no inline script but the page's own: ${csp}`);
      assert.doesNotMatch(csp, /script-src[^;]*unsafe-inline/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.equal(response.headers['cache-control'], 'no-cache');
    }
  });

  test('hashed assets are cached for a year; other files are revalidated', async () => {
    const asset = await hark.request({ method: 'GET', url: '/assets/index-abc123.js' });
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers['cache-control']), /max-age=31536000, immutable/);
    assert.equal(asset.headers['x-content-type-options'], 'nosniff');
    const icon = await hark.request({ method: 'GET', url: '/favicon.svg' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['cache-control'], 'no-cache');
  });

  test('assets are sent compressed as the build wrote them: brotli or gzip, as the browser accepts', async () => {
    const get = (encoding?: string) => hark.request({ method: 'GET', url: '/assets/big-def456.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const brotli = await get('gzip, deflate, br');
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.match(String(brotli.headers.vary), /accept-encoding/i);
    assert.equal(brotliDecompressSync(brotli.rawPayload).toString(), script);
    assert.ok(brotli.rawPayload.length < script.length / 10);
    const gzip = await get('gzip');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), script);
    const plain = await get();
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body, script);
    assert.match(String(plain.headers['content-type']), /javascript/);
  });

  test('API paths and non-page requests get problem+json 404s, not the page', async () => {
    for (const url of ['/api/v1/nothing', '/v1/nothing', '/api/v1/workspaces/ws-1/nothing']) {
      const response = await page(url);
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers['content-type']), /application\/problem\+json/);
    }
    const script = await hark.request({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    assert.equal(script.statusCode, 404);
    const post = await hark.request({ method: 'POST', url: '/somewhere', headers: { accept: 'text/html' } });
    assert.equal(post.statusCode, 404);
  });

  test('a rebuild under a running server is served: the new page and its new files, the index never as a file', async () => {
    // A page kept from before named script files the build had replaced: the browser drew nothing.
    const index = path.join(webDir, 'index.html');
    const before = fs.readFileSync(index, 'utf8');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-new789.js'), 'console.log("rebuilt")');
    fs.writeFileSync(index, before.replace('index-abc123.js', 'index-new789.js').replace('<title>Hark</title>', '<title>Hark rebuilt</title>'));
    // The file's time as a build a moment later gives it (a same-millisecond write would look unchanged).
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(index, later, later);
    const response = await page('/w/ws-123/recordings');
    assert.match(response.body, /<title>Hark rebuilt<\/title>/);
    assert.match(response.body, /index-new789\.js/);
    assert.equal((await hark.request({ method: 'GET', url: '/assets/index-new789.js' })).body, 'console.log("rebuilt")');
    assert.equal((await hark.request({ method: 'GET', url: '/index.html', headers: { accept: '*/*' } })).statusCode, 404, 'the page only as a page');
    fs.writeFileSync(index, before);
  });

  test('the page is never sent as a file, in any spelling, nor a dotfile of the build', async () => {
    fs.mkdirSync(path.join(webDir, '.vite'), { recursive: true });
    fs.writeFileSync(path.join(webDir, '.vite', 'manifest.json'), '{}');
    fs.writeFileSync(path.join(webDir, 'index.html.br'), 'compressed page');
    for (const pathname of ['/index.html', '//index.html', '/./index.html', '/assets/../index.html', '/index.html.br', '/index.html.gz', '/.vite/manifest.json']) {
      assert.equal(servedFile(pathname), false, pathname);
    }
    for (const pathname of ['/assets/index-abc123.js', '/favicon.svg']) assert.equal(servedFile(pathname), true, pathname);
    // Over HTTP, as a browser or a script would ask (a page request gets the page, with its policy).
    for (const url of ['//index.html', '/./index.html', '/assets/../index.html', '/index.html.br', '/.vite/manifest.json']) {
      const response = await hark.request({ method: 'GET', url, headers: { accept: '*/*' } });
      assert.equal(response.statusCode, 404, url);
      assert.doesNotMatch(response.body, /<title>|compressed page|^\{\}$/, url);
    }
  });

  test('the API keeps working beside the page', async () => {
    assert.equal((await hark.request({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.equal((await hark.request({ method: 'GET', url: '/api/v1/recordings-unknown' })).statusCode, 404);
  });
});
