// A real browser for the web interface's journeys: Debian's Chromium driven by playwright-core
// (no browser download), a watch for console errors and failed requests, screenshots at desktop
// and phone widths, and an axe-core accessibility pass.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env.HARK_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.join(import.meta.dirname, '..', 'screenshots');
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const hasChromium = () => fs.existsSync(CHROMIUM);

/** The built web interface the journeys serve, and whether they can run (Chromium and the build there). */
export const WEB_DIR = path.join(import.meta.dirname, '..', '..', 'web', 'dist');
export const webReady = () => hasChromium() && fs.existsSync(path.join(WEB_DIR, 'index.html'));

/** Signs up through the page (a new account and workspace) and answers the workspace's URL. */
export async function signUp(page: Page, workspaceName: string, emailName: string): Promise<string> {
  await page.goto('/sign-up');
  await page.getByLabel('Workspace name').fill(workspaceName);
  await page.getByLabel('E-mail').fill(`${emailName}-${Date.now()}@example.com`);
  await page.locator('input[type=password]').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: 'Continue to my recordings' }).click();
  await page.waitForURL('**/recordings');
  return page.url().replace(/\/recordings$/, '');
}

export function launch(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors and failed or refused requests seen so far. */
  problems: string[];
}

/** A new browser context whose page reports every console error or warning and failed request. */
export async function open(browser: Browser, baseURL: string, viewport = { width: 1440, height: 900 }): Promise<Watched> {
  // One time zone wherever the tests run: the pages show times in the browser's.
  const context = await browser.newContext({ baseURL, viewport, acceptDownloads: true, timezoneId: 'UTC' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A media element torn down, the tab's icon when the page moves on, or a poll (GET) in flight
    // when the person goes to another page cancels its request: not a failure of the page.
    const cancelled = request.failure()?.errorText === 'net::ERR_ABORTED';
    const poll = request.method() === 'GET' && ['fetch', 'xhr'].includes(request.resourceType());
    if (cancelled && (poll || request.resourceType() === 'media' || new URL(request.url()).pathname === '/favicon.svg')) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return { context, page, problems };
}

/** Screenshots of the page at desktop and phone widths, under test/screenshots/; fails when the
 * page scrolls sideways at phone width (a table may scroll inside its own box, the page may not). */
export async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const size = page.viewportSize() ?? { width: 1440, height: 900 };
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-phone.png`), fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewportSize(size);
  await page.waitForTimeout(200);
  if (width > 390) throw new Error(`${name}: the page is ${width} px wide at a 390 px phone width (it scrolls sideways)`);
}

/** axe-core's serious and critical violations on the page, as readable lines. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}
