// Hark serves the built web interface: the page at / and at any app path a browser opens, with a
// Content Security Policy without inline script and no framing; hashed assets cached for a year;
// API paths never answered with the page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startHark, type Hark } from './helpers/harness.ts';

describe('the web interface is served by Hark', () => {
  let hark: Hark;
  let webDir: string;
  before(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Hark</title><script type="module" src="/assets/index-abc123.js"></script>');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log("hark")');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
      assert.match(csp, /script-src 'self'(;|$)/, 'no inline script');
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

  test('the API keeps working beside the page', async () => {
    assert.equal((await hark.request({ method: 'GET', url: '/healthz' })).statusCode, 200);
    assert.equal((await hark.request({ method: 'GET', url: '/api/v1/recordings-unknown' })).statusCode, 404);
  });
});
