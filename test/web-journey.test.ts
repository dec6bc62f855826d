// The web interface as a person uses it, in Debian's Chromium against a real Hark with real audio:
// sign up, upload two files, read and hear a transcript (a click on a word seeks the player), write
// questions and get typed answers with evidence, a weekly chart per agent with its CSV, keys and
// webhooks made and revoked, a viewer without the Upload button whom the API refuses too, and
// sign-out. Every page is screenshotted at desktop and phone widths and passed through axe-core;
// no console error and no failed request is allowed on the way.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { speech, stereoCall } from './helpers/audio.ts';
import { accessibilityProblems, hasChromium, launch, open, screenshots, type Watched } from './helpers/browser.ts';
import { startHark, type Hark } from './helpers/harness.ts';

const webDir = path.join(import.meta.dirname, '..', 'web', 'dist');
const ready = hasChromium() && fs.existsSync(path.join(webDir, 'index.html'));
const PASSWORD = 'a long enough password';

/**
 * Takes out of a page's problems, from `from` on, the refusal a step asked for (a POST to a path
 * matching `path` answered `status`, and the console's line about it): it is not one of the page's.
 */
function askedFor(problems: string[], from: number, status: number, path: RegExp): void {
  const asked = (problem: string) =>
    (problem.startsWith(`HTTP ${status}: POST `) && path.test(problem)) || problem.startsWith(`console error: Failed to load resource: the server responded with a status of ${status} `);
  problems.splice(from, Infinity, ...problems.slice(from).filter((problem) => !asked(problem)));
}

describe('the web interface in Chromium', { skip: ready ? false : 'needs Chromium and the built web interface (scripts/test.sh installs and builds them)' }, () => {
  let hark: Hark;
  let browser: Browser;
  let base: string;
  let owner: Watched;
  const email = `owner-${Date.now()}@example.com`;
  const viewerEmail = `viewer-${Date.now()}@example.com`;
  let workspaceUrl = '';
  const seen: string[] = [];

  before(async () => {
    hark = await startHark({ backend: 'pglite', config: { webDir } });
    await hark.app.listen({ host: '127.0.0.1', port: 0 });
    const address = hark.app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launch();
    owner = await open(browser, base);
  });
  after(async () => {
    await browser?.close();
    await hark?.destroy();
  });

  /** Screenshots and an accessibility pass of the page as it is now. */
  async function check(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshots(page, name);
    const problems = await accessibilityProblems(page);
    assert.deepEqual(problems, [], `${name}: accessibility`);
    seen.push(name);
  }

  test('sign up: the workspace starts its trial and the first API key is shown once', async () => {
    const { page } = owner;
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await check(page, 'sign-in');
    await page.getByRole('link', { name: 'Start a free 7-day trial' }).click();
    await page.getByLabel('Workspace name').fill('Support calls');
    await page.getByLabel('E-mail').fill(email);
    await page.locator('input[type=password]').fill(PASSWORD);
    await check(page, 'sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Your workspace is ready').waitFor();
    assert.match((await page.getByTestId('first-api-key').textContent()) ?? '', /^hark_/);
    // The whole key is in sight: it wraps rather than runs past its box.
    assert.ok(await page.getByTestId('first-api-key').evaluate((el) => el.scrollWidth <= el.clientWidth), 'the key fits its box');
    await check(page, 'sign-up-done');
    await page.getByRole('button', { name: 'Continue to my recordings' }).click();
    await page.waitForURL('**/recordings');
    workspaceUrl = page.url().replace(/\/recordings$/, '');
    await page.getByText('No recordings yet').waitFor();
    await page.getByText(/Trial: 7 days left/).waitFor();
    await check(page, 'recordings-empty');
    // The keyboard's first stop skips the header and the sections to the page.
    await page.goto(page.url());
    await page.getByText('No recordings yet').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main-content');
  });

  test('upload two files by drop zone with metadata; both are prepared', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const files = [speech('Hello, thank you for calling. How can I help you today?'), speech('Good morning. I would like a refund for my order please.')];
    // A note chosen with them is left out, and the panel says so.
    const note = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('call notes') };
    await page.locator('input[type=file]').first().setInputFiles([...files.map((file) => ({ name: path.basename(file), mimeType: 'audio/wav', buffer: fs.readFileSync(file) })), note]);
    await page.locator('[data-skipped]').getByText('Left out, not audio: notes.txt.', { exact: false }).waitFor();
    await page.getByLabel('Metadata field 1', { exact: true }).fill('agent');
    await page.getByLabel('Metadata value 1', { exact: true }).fill('ana');
    // The page's Upload button again (or Import) drops nothing chosen: the panel closes by its own Close only.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('button', { name: 'Import from a URL' }).click();
    assert.equal(await page.getByLabel('Metadata value 1', { exact: true }).inputValue(), 'ana');
    await page.getByRole('button', { name: 'Close' }).last().click();
    // A file-name pattern the names do not fit is said before anything is sent.
    await page.getByLabel('File-name pattern').fill('{agent}_{queue}');
    await page.locator(`[data-file-warning="${path.basename(files[0]!)}"]`).getByText('its name does not fit the pattern: no values of its own').waitFor();
    await page.getByLabel('File-name pattern').fill('');
    assert.equal(await page.locator('[data-file-warning]').count(), 0);
    // Each file's own values from a CSV, beside the batch's.
    // Given as bytes: a path would be read by the page later, lazily, from a file that must still exist.
    const csv = `file,queue\n${path.basename(files[0]!)},billing\n${path.basename(files[1]!)},sales\n`;
    await page.locator('input[type=file]').nth(1).setInputFiles({ name: 'calls.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator(`[data-file-metadata="${path.basename(files[0]!)}"]`).getByText('agent: ana · queue: billing').waitFor();
    await page.locator(`[data-file-metadata="${path.basename(files[1]!)}"]`).getByText('agent: ana · queue: sales').waitFor();
    // The retention an empty field means is said; one out of the server's range is said before anything is sent.
    await page.getByText("Leave empty for the workspace's default: 7 days").waitFor();
    const keepFor = page.getByLabel('Keep the audio for (days)');
    await keepFor.fill('0');
    await page.getByText('From 1 to 3650 days').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Upload 2 files' }).isDisabled(), true);
    await keepFor.fill('');
    await check(page, 'upload');
    await page.getByRole('button', { name: 'Upload 2 files' }).click();
    await page.getByText('Uploaded').nth(1).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Close' }).click();
    const table = page.getByRole('table', { name: 'Recordings' });
    await table.getByText('Audio ready').nth(1).waitFor({ timeout: 60_000 });
    assert.equal(await table.getByRole('row').count(), 3, 'a header and two recordings');
    await page.getByLabel('Metadata columns', { exact: true }).first().click();
    await page.getByRole('option', { name: 'agent' }).click();
    await page.keyboard.press('Escape');
    await table.getByRole('cell', { name: 'ana' }).first().waitFor();
    await check(page, 'recordings');
    // The Status filter says a status is where a call stands now: "Transcribed only" leaves out the analysed.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Transcribed only' }).waitFor();
    await page.getByRole('option', { name: 'Audio ready only' }).waitFor();
    await page.keyboard.press('Escape');
    // On a phone the calls come first: the filters fold behind one button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('[data-filters-toggle]').waitFor();
    const firstCall = await page.getByRole('table', { name: 'Recordings' }).locator('tbody tr').first().boundingBox();
    assert.ok(firstCall && firstCall.y + firstCall.height < 844, `the first call is on the phone's first screen (at ${firstCall?.y})`);
    await page.locator('[data-filters-toggle]').click();
    await page.getByRole('combobox', { name: 'Order' }).waitFor();
    // The sections slide over the page from the menu button, and Escape puts them away.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await sections.getByRole('link', { name: 'Reports' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('[aria-label="Toggle navigation"]')?.getAttribute('aria-expanded') === 'false');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('[data-filters-toggle]').waitFor({ state: 'detached' });
    // Sorted by call date; the view is kept when leaving by the sidebar and coming back.
    await page.getByRole('combobox', { name: 'Order' }).click();
    await page.getByRole('option', { name: 'Latest calls first' }).click();
    await page.waitForURL(/sort=recorded_at/);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Search' }).click();
    await page.waitForURL(/\/search$/);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Recordings' }).click();
    await page.waitForURL(/\/recordings\?.*sort=recorded_at/);
    assert.match(page.url(), /columns=agent/);
    await table.getByRole('cell', { name: 'ana' }).first().waitFor();
  });

  test('an import sends a recorded_at field as the call time, not as metadata', async () => {
    const { page } = owner;
    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByRole('button', { name: 'Import from a URL' }).click();
    // An address nothing answers at: the import is accepted, then its download fails (and is deleted below).
    await page.getByLabel('Audio URL').fill('http://127.0.0.1:9/call.wav');
    await page.getByLabel('Metadata field 1', { exact: true }).fill('recorded_at');
    const value = page.getByLabel('Metadata value 1', { exact: true });
    await value.fill('last tuesday');
    await page.getByText('recorded_at “last tuesday” is not a date', { exact: false }).waitFor();
    const importButton = page.getByRole('button', { name: 'Import', exact: true });
    assert.equal(await importButton.isDisabled(), true, 'a call time that is no date is not sent');
    await value.fill('2026-11-16T09:10Z');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByLabel('Metadata field 2', { exact: true }).fill('agent');
    await page.getByLabel('Metadata value 2', { exact: true }).fill('ana');
    const sent = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/recordings/import'));
    await importButton.click();
    const request = await sent;
    const body = request.postDataJSON() as { recorded_at?: string; metadata?: Record<string, unknown> };
    assert.deepEqual([body.recorded_at && new Date(body.recorded_at).toISOString(), body.metadata], ['2026-11-16T09:10:00.000Z', { agent: 'ana' }]);
    const created = (await (await request.response())!.json()) as { id: string; recorded_at: string; recorded_at_source: string; metadata: Record<string, unknown> };
    assert.deepEqual([created.recorded_at, created.recorded_at_source, created.metadata], ['2026-11-16T09:10:00.000Z', 'client', { agent: 'ana' }]);
    await page.getByText('Importing call.wav', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Close' }).last().click();
    const workspaceApi = `/api/v1/workspaces/${workspaceUrl.split('/w/')[1]}`;
    const csrf = (await (await page.context().request.get('/api/v1/sessions/current')).json()) as { csrf_token: string };
    const deleted = await page.evaluate(async ([url, token]) => (await fetch(url, { method: 'DELETE', headers: { 'x-csrf-token': token } })).status, [`${workspaceApi}/recordings/${created.id}`, csrf.csrf_token] as const);
    assert.equal(deleted, 204);
    // The list as the next step finds it: the two uploads, the import gone.
    await page.goto(`${workspaceUrl}/recordings`);
    const table = page.getByRole('table', { name: 'Recordings' });
    await table.getByRole('link').first().waitFor();
    assert.equal(await table.getByRole('link', { name: 'call.wav' }).count(), 0);
  });

  test('a recording: transcribe, read the transcript, and a click on a word seeks the player', async () => {
    const { page } = owner;
    await page.getByRole('table', { name: 'Recordings' }).getByRole('link').first().click();
    await page.getByText('No transcript yet.').waitFor();
    // Opened afresh (a reload, a link), the page asks early only for what the call has: no 404 for
    // a transcript it does not have yet.
    const problemsBefore = owner.problems.length;
    await page.reload();
    await page.getByText('No transcript yet.').waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(owner.problems.slice(problemsBefore), [], 'nothing refused on a fresh open');
    // Each scenario once, by its own name (a "Default scenario" choice stood beside the scenario of that name).
    const choices = await page.getByLabel('Transcribe with').locator('option').allTextContents();
    assert.deepEqual(choices, [...new Set(choices)], `no scenario twice: ${choices.join(', ')}`);
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const transcript = page.getByLabel('Transcript', { exact: true });
    await transcript.waitFor({ timeout: 60_000 });
    const words = transcript.locator('[data-word]');
    assert.ok((await words.count()) >= 4, 'words with times');
    await page.getByTestId('player-time').filter({ hasText: /\/ 0:0[1-9]/ }).waitFor({ timeout: 20_000 });
    const target = words.nth(3);
    await target.click();
    // The word heard is lit: the clicked one, or a later one once playback has moved on.
    const lit = await page
      .waitForFunction(() => Number(document.querySelector('[data-word][aria-current="true"]')?.getAttribute('data-word') ?? -1) >= 3, undefined, { polling: 'raf', timeout: 10_000 })
      .then(() => true, () => false);
    assert.ok(lit, 'the word heard is lit');
    await page.waitForFunction(() => (document.querySelector('audio')?.currentTime ?? 0) > 0.3);
    const time = await page.evaluate(() => document.querySelector('audio')!.currentTime);
    assert.ok(time > 0.3, `the player seeked to the word (at ${time}s)`);
    await page.getByRole('button', { name: 'Pause' }).click().catch(() => {});
    // The call's metadata as fields and values, not as code.
    assert.deepEqual(await page.getByRole('definition').allTextContents(), ['ana', 'sales']);
    assert.equal(await page.locator('[data-metadata-field="agent"] dt').textContent(), 'agent');
    // A call of one channel has its sentiment along the call too, in one lane: everyone's.
    assert.equal(await page.locator('[data-sentiment-lane]').count(), 1);
    await page.getByText('Sentiment along the call, everyone on one channel (green pleased, red upset)').waitFor();
    await check(page, 'recording-transcript');
    // On a laptop's short screen the player stays in view under the header while the page scrolls.
    await page.setViewportSize({ width: 1280, height: 600 });
    // (A long call's transcript, stood in for by a tall block in the player's column.)
    await page.evaluate(() => {
      const tall = document.createElement('div');
      tall.id = 'long-transcript';
      tall.style.height = '2000px';
      document.querySelector('[data-player]')!.parentElement!.appendChild(tall);
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
    await page.waitForFunction(() => window.scrollY > 1000);
    const held = await page.locator('[data-player]').boundingBox();
    assert.ok(held && held.y >= 60 && held.y < 120, `the player is held under the header (at ${held?.y})`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => {
      document.getElementById('long-transcript')!.remove();
      window.scrollTo(0, 0);
    });
    // Metadata is edited after the upload: a field added, the others kept as they were.
    await page.getByRole('button', { name: 'Edit metadata' }).click();
    const editing = page.getByRole('dialog', { name: "The call's metadata" });
    await editing.getByRole('button', { name: 'Add a field' }).click();
    await editing.getByLabel('Metadata field 3', { exact: true }).fill('priority');
    await editing.getByLabel('Metadata value 3', { exact: true }).fill('high');
    // A recorded_at field is when the call took place, not metadata: one that is no date is said, and holds Save.
    await editing.getByRole('button', { name: 'Add a field' }).click();
    await editing.getByLabel('Metadata field 4', { exact: true }).fill('recorded_at');
    await editing.getByLabel('Metadata value 4', { exact: true }).fill('2026-11-31');
    await editing.locator('[data-call-time-problem]').getByText('recorded_at “2026-11-31” is not a date', { exact: false }).waitFor();
    assert.equal(await editing.getByRole('button', { name: 'Save' }).isDisabled(), true);
    await editing.getByLabel('Metadata value 4', { exact: true }).fill('2026-11-20T09:30');
    await editing.getByRole('button', { name: 'Save' }).click();
    await editing.waitFor({ state: 'hidden' });
    await page.locator('[data-metadata-field="priority"] dd').getByText('high').waitFor();
    assert.deepEqual(await page.getByRole('definition').allTextContents(), ['ana', 'sales', 'high']);
    await page.getByText('call of 20 Nov 2026, 09:30', { exact: false }).waitFor();
    // The audio kept longer: days from the upload, the date they come to said before saving.
    await page.locator('[data-change-retention]').click();
    const keep = page.getByRole('dialog', { name: 'How long to keep the audio' });
    await keep.getByLabel('Days, counted from the upload').fill('90');
    const later = new Date(Date.now() + 90 * 86_400_000);
    const until = `${later.getDate()} ${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][later.getMonth()]} ${later.getFullYear()}`;
    await keep.getByText(`The audio is kept until ${until}`, { exact: false }).waitFor();
    await page.waitForFunction(() => getComputedStyle(document.querySelector('[role="dialog"]')!).opacity === '1');
    await check(page, 'recording-retention');
    await keep.getByRole('button', { name: 'Save' }).click();
    await keep.waitFor({ state: 'hidden' });
    await page.getByText(`audio kept until ${until}`, { exact: false }).waitFor();

    // The transcript box follows the word heard, except for a while after its reader scrolled it
    // (a long call's transcript stood in for by a tall block above the words).
    // The turns scroll in their box; the statistics and topics stay above it.
    const box = transcript.locator('.mantine-ScrollArea-viewport').first();
    await box.evaluate((element) => {
      const tall = document.createElement('div');
      tall.id = 'long-transcript';
      tall.style.height = '2000px';
      element.querySelector('.hark-segment')!.parentElement!.prepend(tall);
    });
    const lastWord = (await words.count()) - 1;
    const hear = (fraction: number) => page.evaluate((f) => {
      const audio = document.querySelector('audio')!;
      audio.currentTime = audio.duration * f;
    }, fraction);
    const inView = () => box.evaluate((element, i) => {
      const word = element.querySelector(`[data-word="${i}"]`)!.getBoundingClientRect();
      const frame = element.getBoundingClientRect();
      return word.top >= frame.top && word.bottom <= frame.bottom;
    }, lastWord);
    await hear(0.97);
    await page.waitForFunction((i) => document.querySelector('[data-word][aria-current="true"]')?.getAttribute('data-word') === String(i), lastWord, { timeout: 10_000 });
    await page.waitForFunction(() => (document.querySelector('.mantine-ScrollArea-viewport')?.scrollTop ?? 0) > 1000, undefined, { timeout: 5_000 });
    assert.ok(await inView(), 'the box scrolled to the word heard');
    // The reader scrolls back to the top (the scrollbar dragged, or Page Up): the box stays there.
    await box.evaluate((element) => element.scrollTo({ top: 0 }));
    await hear(0.3);
    await hear(0.97);
    await page.waitForTimeout(500);
    assert.equal(await box.evaluate((element) => element.scrollTop), 0, 'the box left where its reader put it');
    await page.evaluate(() => document.getElementById('long-transcript')!.remove());
    await hear(0);

    // A reviewer's keys: speed, skips, and the words reached and played without a mouse.
    const audioTime = () => page.evaluate(() => document.querySelector('audio')!.currentTime);
    await page.getByLabel('Playback speed').selectOption('2');
    assert.equal(await page.evaluate(() => document.querySelector('audio')!.playbackRate), 2);
    await page.getByRole('button', { name: 'Back 5 s' }).click();
    assert.equal(await audioTime(), 0, 'back 5 s stops at the start');
    await page.locator('body').press('l');
    assert.ok((await audioTime()) > 1, 'L skips ahead');
    await page.locator('body').press('j');
    assert.equal(await audioTime(), 0, 'J skips back');
    await page.locator('body').press('+');
    assert.equal(await page.evaluate(() => document.querySelector('audio')!.playbackRate), 2.5);
    const stop = transcript.locator('[data-word][tabindex="0"]');
    assert.equal(await stop.count(), 1, 'the words are one tab stop');
    await stop.focus();
    const first = Number(await stop.getAttribute('data-word'));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const focused = await page.evaluate(() => Number((document.activeElement as HTMLElement).dataset.word));
    assert.equal(focused, first + 2, 'arrows move between words');
    await page.keyboard.press('Enter');
    await page.waitForFunction((i) => document.querySelector('[data-word][aria-current="true"]')?.getAttribute('data-word') !== null && Number(document.querySelector('[data-word][aria-current="true"]')!.getAttribute('data-word')) >= i, focused, { timeout: 10_000 });
    await page.getByRole('button', { name: 'Pause' }).click().catch(() => {});
  });

  test('search: a word of the transcript finds it, marked, and opens its recording at the hit', async () => {
    const { page } = owner;
    const words = (await page.getByLabel('Transcript', { exact: true }).locator('[data-word]').allTextContents()).map((w) => w.trim().toLowerCase().replace(/[^a-z]/g, ''));
    const word = words.find((w) => w.length >= 4);
    assert.ok(word, `a word of four letters or more in ${words.join(' ')}`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Search transcripts').fill(word);
    await page.getByLabel('Search transcripts').press('Enter');
    const hit = page.locator('[data-hit]').first();
    await hit.waitFor({ timeout: 10_000 });
    assert.match((await hit.locator('mark').first().textContent()) ?? '', new RegExp(word, 'i'));
    assert.match(page.url(), new RegExp(`/search\\?q=${word}$`));
    // The hit names its call: file, speaker and the agent from its metadata.
    assert.match((await hit.locator('[data-hit-call]').textContent()) ?? '', /a\d\.wav.*said by channel_0.*agent: ana/);
    await page.mouse.move(700, 500); // off the hovered link, whose hover colours are not the page's
    await check(page, 'search');
    const label = (await hit.getByRole('link').textContent()) ?? '';
    await hit.getByRole('link').click();
    await page.getByLabel('Transcript', { exact: true }).waitFor();
    // The recording opens with the player at the hit's time, the time its link said.
    const t = new URL(page.url()).searchParams.get('t');
    assert.equal(label, `Open at ${Math.floor(Number(t) / 60)}:${String(Math.floor(Number(t)) % 60).padStart(2, '0')}`);
    assert.match(t ?? '', /^\d+(\.\d+)?$/, `the link carries the hit's time: ${page.url()}`);
    if (Number(t) > 0.05) await page.waitForFunction((at) => Math.abs((document.querySelector('audio')?.currentTime ?? 0) - at) < 0.05, Number(t), { timeout: 10_000 });
  });

  test('a reviewer corrects a misheard word; the page, the versions and search read the correction', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Correct', exact: true }).click();
    const editor = page.getByLabel('Correct the transcript');
    const first = editor.getByRole('textbox').first();
    const before = await first.inputValue();
    await first.fill(`${before.replace(/[.?!]$/, '')} quokka.`);
    await check(page, 'transcript-correction');
    await editor.getByRole('button', { name: /^Save corrections/ }).click();
    await page.getByText('Saved as version 2; version 1 is kept.').waitFor();
    await page.locator('[data-version="2"]').waitFor();
    assert.match((await page.getByLabel('Transcript', { exact: true }).textContent()) ?? '', /quokka\./);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Search transcripts').fill('quokka');
    await page.getByLabel('Search transcripts').press('Enter');
    await page.locator('[data-hit] mark').getByText('quokka', { exact: false }).first().waitFor({ timeout: 10_000 });
    await page.goBack();
    await page.goBack();
    await page.getByLabel('Transcript', { exact: true }).waitFor();
    // Transcribing the corrected call again would show a new transcript without the correction: asked first.
    await page.getByRole('button', { name: 'Transcribe', exact: true }).click();
    const warning = page.locator('[data-corrected-warning]');
    await warning.getByText(/in place of version 2, without the corrections/).waitFor();
    assert.match((await warning.getByRole('link', { name: 'download it (TXT)' }).getAttribute('href')) ?? '', /\/transcript\?format=txt$/);
    await check(page, 'transcribe-corrected');
    await warning.getByRole('button', { name: 'Keep the corrected one' }).click();
    await warning.waitFor({ state: 'detached' });
    await page.locator('[data-version="2"]').waitFor();
    // Each transcription run's own transcript (the corrected one, here) is read from the Runs tab.
    const recordingUrl = page.url();
    await page.getByRole('tab', { name: 'Runs' }).click();
    const txt = page.getByRole('table', { name: 'Transcription runs' }).getByRole('link', { name: /^Download the transcript of the run/ }).first();
    assert.match((await (await page.context().request.get((await txt.getAttribute('href')) ?? '')).text()), /quokka\./);
    // Run on recordings with a transcription scenario leaves the corrected call out unless it is ticked in.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Scenarios' }).click();
    await page.getByRole('table', { name: 'Transcription scenarios' }).getByRole('link').first().click();
    await page.getByRole('button', { name: 'Run on recordings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run on recordings' });
    const include = dialog.getByLabel('Include the 1 call whose transcript was corrected by hand');
    await include.waitFor();
    const matching = async () => Number(await dialog.locator('[data-matching]').getAttribute('data-matching'));
    await dialog.locator('[data-matching]:not([data-matching=""])').waitFor();
    const without = await matching();
    await include.check();
    await page.waitForFunction((n) => Number(document.querySelector('[data-matching]')?.getAttribute('data-matching')) === n, without + 1);
    await check(page, 'run-on-recordings-corrected');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(recordingUrl);
  });

  test('write a boolean and a text question in the editor, run it, and read typed answers with evidence', async () => {
    const { page } = owner;
    await page.goto(`${workspaceUrl}/scenarios`);
    await check(page, 'scenarios');
    // Named first: a click alone, then Cancel, leaves no empty scenario behind.
    const scenarioRows = async () => page.getByRole('table', { name: 'Analysis scenarios' }).getByRole('row').count();
    const rowsBefore = await scenarioRows();
    await page.getByRole('button', { name: 'New analysis scenario' }).click();
    const naming = page.getByRole('dialog', { name: 'New analysis scenario' });
    await naming.getByRole('button', { name: 'Cancel' }).click();
    await naming.waitFor({ state: 'hidden' });
    assert.equal(await scenarioRows(), rowsBefore, 'nothing was created');
    await page.getByRole('button', { name: 'New analysis scenario' }).click();
    await naming.getByLabel('Name').fill('Call review');
    await check(page, 'scenario-naming');
    await naming.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByRole('textbox', { name: /^Question( \*)?$/ }).nth(0).fill('Did the agent greet the customer?');
    // A new question's key follows its words, for reports and CSV columns (not q1).
    assert.equal(await page.getByRole('textbox', { name: 'Key' }).nth(0).inputValue(), 'agent_greet_customer');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByRole('textbox', { name: /^Question( \*)?$/ }).nth(1).fill('What did the customer ask for?');
    await page.getByLabel('Answer', { exact: true }).and(page.locator('input')).nth(1).click();
    await page.getByRole('option', { name: 'Text' }).click();
    // The greeting is a phrase rule on the call's first seconds; phrases are for yes/no questions only.
    await page.getByRole('textbox', { name: 'Question 1: within the first seconds' }).fill('20');
    const phrases = page.getByLabel('Question 1: phrases', { exact: true });
    await phrases.fill('thank you for calling');
    await phrases.press('Enter');
    assert.equal(await page.getByLabel('Question 2: phrases', { exact: true }).count(), 0, 'a text question has no phrases');
    // A yes/no question the engine answers may carry sentences that mean yes (commas kept).
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByRole('textbox', { name: /^Question( \*)?$/ }).nth(2).fill('Was a refund offered?');
    const examples = page.getByLabel('Question 3: sentences that mean yes', { exact: true });
    await examples.fill('Sorry, I will refund you today');
    await examples.press('Enter');
    assert.equal(await page.getByLabel('Question 1: sentences that mean yes', { exact: true }).count(), 0, 'a phrase rule needs no examples');
    await check(page, 'analysis-scenario');
    // Leaving with changes not saved asks first; staying keeps them.
    await page.getByRole('link', { name: 'Reports', exact: true }).first().click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await check(page, 'leave-unsaved');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await leave.waitFor({ state: 'hidden' });
    assert.match(page.url(), /\/scenarios\/analysis\//);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    // Saved as typed: the example is read back from the API.
    await page.reload();
    await page.getByText('Sorry, I will refund you today', { exact: true }).waitFor();

    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByRole('table', { name: 'Recordings' }).getByRole('link').first().click();
    await page.getByLabel('Transcript', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Analyse with', { exact: true }).first().selectOption({ label: 'Call review' });
    await page.getByRole('button', { name: 'Analyse' }).click();
    const result = page.locator('[data-result]').first();
    await result.waitFor({ timeout: 60_000 });
    const yesNo = await result.locator('[data-question="agent_greet_customer"] [data-answer]').first().getAttribute('data-answer');
    assert.ok(yesNo === 'true' || yesNo === 'false', `a boolean answer: ${yesNo}`);
    await result.locator('[data-question="customer_ask"] [data-answer="text"]').waitFor();
    assert.equal(await result.locator('[data-question="agent_greet_customer"] [data-scope]').textContent(), 'first 20 s · by phrase, no model');
    const evidence = result.locator('[data-evidence]').first();
    if ((await evidence.count()) > 0) {
      const at = Number(await evidence.getAttribute('data-evidence'));
      await evidence.click();
      await page.waitForFunction((t) => Math.abs((document.querySelector('audio')?.currentTime ?? -1) - t) < 1.5, at);
    }
    await check(page, 'recording-answers');

    // Opened afresh, the page asks for what it shows while its code loads (the page's inline
    // script, which its policy allows), and the app takes those answers instead of asking again.
    // Its code too: the frame's and the page's chunks are preloaded by that script, at low
    // priority (the styles first), and nothing is fetched twice.
    const asked: string[] = [];
    const assets: string[] = [];
    const onRequest = (request: { url(): string; method(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && request.method() === 'GET') asked.push(`${url.pathname}?${[...url.searchParams].map((p) => p.join('=')).sort().join('&')}`);
      if (url.pathname.startsWith('/assets/')) assets.push(url.pathname);
    };
    page.on('request', onRequest);
    await page.reload();
    await page.getByLabel('Transcript', { exact: true }).waitFor();
    await page.locator('[data-result]').first().waitFor();
    await page.waitForLoadState('networkidle');
    page.off('request', onRequest);
    const early = await page.evaluate(() => Object.keys((window as unknown as { harkEarly?: object }).harkEarly ?? {}));
    assert.ok(early.some((url) => url.endsWith('/transcript')) && early.some((url) => url.includes('/transcription-runs?')), `asked early: ${early.join(', ')}`);
    assert.deepEqual(asked.filter((url, i) => asked.indexOf(url) !== i), [], `each asked once: ${asked.join(', ')}`);
    assert.equal(await page.locator('audio').getAttribute('preload'), 'none', 'the audio waits until it is played');
    assert.deepEqual(assets.filter((file, i) => assets.indexOf(file) !== i), [], `each file fetched once: ${assets.join(', ')}`);
    const preloads = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload]')].map((link) => `${link.getAttribute('href')} ${link.fetchPriority}`));
    assert.ok(preloads.some((line) => /^\/assets\/Recording-[^/]+\.js low$/.test(line)), `the page's chunk preloaded: ${preloads.join(', ')}`);
    assert.ok(preloads.some((line) => /^\/assets\/mantine-[^/]+\.js low$/.test(line)), `the entry's own preloads at low priority too: ${preloads.join(', ')}`);

    // The frame's header is drawn before the app's code has run, and gives way to the app.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const entry = /\/assets\/index-[^/]+\.js$/;
    await page.route(entry, async (route) => {
      await held;
      await route.continue();
    });
    const reloaded = page.reload();
    await page.locator('#shell').waitFor({ state: 'visible' });
    assert.equal(await page.locator('#shell').textContent(), 'Hark');
    assert.equal(await page.locator('#root').innerHTML(), '', 'the app has not run yet');
    release();
    await reloaded;
    await page.unroute(entry);
    await page.getByLabel('Transcript', { exact: true }).waitFor();
    assert.equal(await page.locator('#shell').isVisible(), false);

    // It stays while the frame waits for the session (the app's styles and a loader are drawn by
    // then), and gives way to the frame's own header.
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const session = '**/api/v1/sessions/current';
    await page.route(session, async (route) => {
      await answered;
      await route.continue();
    });
    const opened = page.reload();
    await page.getByLabel('Loading').waitFor();
    assert.equal(await page.locator('#shell').isVisible(), true, 'the header stays while the session is asked for');
    answer();
    await opened;
    await page.unroute(session);
    await page.getByLabel('Transcript', { exact: true }).waitFor();
    assert.equal(await page.locator('#shell').isVisible(), false);
  });

  test('a passage that means yes, taught from the answer, becomes an example and the call is analysed again', async () => {
    const { page } = owner;
    const latest = page.locator('[data-result]').first();
    const refund = latest.locator('[data-question="refund_offered"]');
    const teach = refund.getByRole('button', { name: 'Means yes' }).first();
    await teach.waitFor({ timeout: 10_000 });
    // The button is described by the passage it teaches.
    const described = await teach.getAttribute('aria-describedby');
    const sentence = ((await page.locator(`[id="${described}"]`).textContent()) ?? '').replace(/^“|”$/g, '');
    assert.match(sentence, /refund/);
    const firstRun = await latest.getAttribute('data-result');
    await check(page, 'recording-teach');
    // Meanwhile the scenario is open in another tab, its name being changed.
    const editor = await page.context().newPage();
    await editor.goto(`${workspaceUrl}/scenarios`);
    await editor.getByRole('table', { name: 'Analysis scenarios' }).getByRole('link', { name: 'Call review', exact: true }).first().click();
    await editor.getByLabel('Name').fill('Call review (draft)');
    await teach.click();
    await page.getByText('Added to the question’s examples; analysing the call again.').waitFor();
    // Saved later, the other tab's draft would drop the example: it is refused (or, where the tab
    // read the scenario again first, not offered) and the tab says so.
    const saveDraft = editor.getByRole('button', { name: 'Save', exact: true });
    if (await saveDraft.isEnabled()) await saveDraft.click();
    await editor.getByText('Saved elsewhere meanwhile').waitFor();
    assert.equal(await saveDraft.isDisabled(), true, 'the plain Save waits for a choice');
    assert.equal(await editor.getByLabel('Name').inputValue(), 'Call review (draft)', 'the draft is kept');
    await check(editor, 'scenario-saved-elsewhere');
    await editor.getByRole('button', { name: 'Load the saved version' }).click();
    await editor.getByText(sentence, { exact: true }).waitFor();
    assert.equal(await editor.getByLabel('Name').inputValue(), 'Call review');
    assert.equal(await editor.getByText('Saved elsewhere meanwhile').count(), 0);
    await editor.close();
    // A new run: its answer replaces the one shown, the earlier one folded away.
    await page.waitForFunction((run) => { const shown = document.querySelector('[data-result]'); return shown !== null && shown.getAttribute('data-result') !== run; }, firstRun, { timeout: 60_000 });
    const again = page.locator('[data-result]').first().locator('[data-question="refund_offered"]');
    await again.locator('[data-answer="true"]').waitFor({ timeout: 60_000 });
    assert.equal(await again.locator('[data-uncertain]').count(), 0, 'the call says the example itself: a sure yes');
    assert.ok(((await again.getByRole('list', { name: /^Evidence for/ }).textContent()) ?? '').includes(sentence), 'the taught sentence is the evidence');
    await page.getByText('1 earlier result of Call review').waitFor();
    await check(page, 'recording-taught');
    // The scenario carries it: its editor reads the sentence back among the question's examples.
    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('table', { name: 'Analysis scenarios' }).getByRole('link', { name: 'Call review', exact: true }).first().click();
    await page.getByText(sentence, { exact: true }).waitFor();
    await page.getByText('Sorry, I will refund you today', { exact: true }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: /^Question( \*)?$/ }).count(), 3, 'the other questions are kept');
    await page.goBack();
    await page.goBack();
    await page.getByLabel('Transcript', { exact: true }).waitFor();
  });

  test('reports: a weekly chart per agent and its CSV', async () => {
    const { page } = owner;
    // Analyse the second recording too, through the API the page uses.
    await page.goto(`${workspaceUrl}/reports`);
    // Opened without a choice, Reports shows the scenario with the newest answers, not the first (never run).
    const chosen = page.getByLabel('Analysis scenario', { exact: true }).first();
    for (let i = 0; i < 50 && (await chosen.inputValue()) !== 'Call review'; i++) await page.waitForTimeout(200);
    assert.equal(await chosen.inputValue(), 'Call review');
    await page.getByLabel('Group by metadata field', { exact: true }).first().click();
    await page.getByRole('option', { name: 'agent' }).click();
    await page.getByText('Week', { exact: true }).click();
    await page.getByTestId('report-chart').locator('svg').first().waitFor();
    await page.getByRole('table', { name: 'Answers per group' }).getByText('ana').waitFor();
    await check(page, 'reports');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    assert.match(csv.split('\n')[0]!, /metadata\.agent/);
    assert.match(csv, /ana/);
    // Another scenario chosen here is the one Reports opens on next, not the one that ran last.
    await chosen.click();
    await page.getByRole('option', { name: 'Default call review (basic engine)' }).click();
    await page.goto(`${workspaceUrl}/reports`);
    for (let i = 0; i < 50 && (await chosen.inputValue()) !== 'Default call review (basic engine)'; i++) await page.waitForTimeout(200);
    assert.equal(await chosen.inputValue(), 'Default call review (basic engine)');
    await chosen.click();
    await page.getByRole('option', { name: 'Call review', exact: true }).click();
  });

  test('a call on two channels: the transcript names each speaker and shows the talk statistics', async () => {
    const { page } = owner;
    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const call = stereoCall(
      [
        { channel: 0, at: 0.3, text: 'Thank you for calling, this is Sam.' },
        { channel: 1, at: 3, text: 'Hi, my parcel never arrived.' },
        { channel: 0, at: 6, text: 'I am sorry, I will send another one today.' },
      ],
      10,
    );
    // A file named .wav that is no audio is refused by the server (415), and not offered again.
    const problemsBefore = owner.problems.length;
    await page.locator('input[type=file]').first().setInputFiles([{ name: 'broken.wav', mimeType: 'audio/wav', buffer: Buffer.from('these are call notes, not audio') }]);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await page.getByText('the content is not WAV, MP3', { exact: false }).first().waitFor({ timeout: 30_000 });
    assert.equal(await page.getByRole('button', { name: /^Upload/ }).last().isDisabled(), true, 'a refused file is not sent again');
    askedFor(owner.problems, problemsBefore, 415, /\/recordings$/);
    await page.locator('input[type=file]').first().setInputFiles([call]);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await page.getByText('Uploaded').first().waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Close' }).click();
    const table = page.getByRole('table', { name: 'Recordings' });
    await table.getByRole('row').nth(1).getByText('Audio ready').waitFor({ timeout: 60_000 });
    await table.getByRole('link').first().click();
    // A call category made through the API: the recording shows it once transcribed.
    const workspaceApi = `/api/v1/workspaces/${workspaceUrl.split('/w/')[1]}`;
    const category = await page.evaluate(
      async ([url, token]) =>
        (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ name: 'Parcel problem', rule: { match: 'any', conditions: [{ type: 'phrase', phrases: ['parcel'] }] } }) })).status,
      [`${workspaceApi}/categories`, (await (await page.context().request.get('/api/v1/sessions/current')).json()).csrf_token as string] as const,
    );
    assert.equal(category, 201);
    await page.getByRole('button', { name: 'Transcribe' }).click();
    const transcript = page.getByLabel('Transcript', { exact: true });
    await transcript.locator('[data-speaker="channel_1"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-category="Parcel problem"]').waitFor({ timeout: 10_000 });
    assert.deepEqual(await transcript.locator('[data-speaker]').evaluateAll((badges) => badges.map((b) => b.getAttribute('data-speaker'))), ['channel_0', 'channel_1', 'channel_0'], 'each turn starts with its speaker');
    assert.match((await page.getByLabel('Talk statistics').textContent()) ?? '', /channel_0 \d+ % of the talk.*channel_1 \d+ % of the talk/);
    // Lengths as the talk report gives them (tenths of a second), not as clock times.
    assert.match((await page.getByLabel('Talk statistics').textContent()) ?? '', /longest turn \d+\.\d s.*silence \d+\.\d s · overlap \d+\.\d s/);
    // Speakers still called by their channel: the page says where they are named.
    const nameThem = page.locator('[data-name-speakers]').getByRole('link', { name: 'Name them (agent, customer)' });
    assert.match((await nameThem.getAttribute('href')) ?? '', /\/scenarios\/transcription\/sct-/);
    // What the call is about: its topics, one of which finds it in the list.
    await transcript.locator('[data-topic="parcel"]').waitFor();
    // Under the waveform, each speaker's sentiment along the call.
    assert.deepEqual(await page.locator('[data-sentiment-lane]').evaluateAll((lanes) => lanes.map((l) => l.getAttribute('data-sentiment-lane'))), ['channel_0', 'channel_1']);
    // Sentence by sentence, the sentence and its score on hover.
    const sentences = page.locator('[data-sentiment-lane] [data-sentence-score]');
    assert.ok((await sentences.count()) >= 3, 'a mark for each sentence');
    assert.match((await sentences.first().getAttribute('title')) ?? '', /^channel_0 0:0\d: “.+” -?\d\.\d\d$/);
    await check(page, 'recording-call');
    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByLabel('Topic', { exact: true }).fill('parcel');
    await page.getByLabel('Topic', { exact: true }).press('Enter');
    await page.waitForURL(/topic=parcel/);
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Recordings"] tbody tr').length === 1, undefined, { timeout: 10_000 });
    assert.equal(await table.getByRole('link').count(), 1);
    // The reports' Talk tab averages it with the other calls.
    await page.goto(`${workspaceUrl}/reports`);
    await page.getByRole('tab', { name: 'Talk' }).click();
    const talk = page.getByRole('table', { name: 'Talk per group' });
    await talk.getByRole('columnheader', { name: 'channel_1' }).waitFor();
    assert.match((await talk.getByRole('row').nth(1).textContent()) ?? '', /\d+ % · \d+ wpm/);
    await page.getByTestId('talk-chart').locator('svg').first().waitFor();
    await check(page, 'reports-talk');
    const [talkDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download talk CSV' }).click()]);
    assert.match(fs.readFileSync((await talkDownload.path())!, 'utf8').split('\n')[0]!, /channel_1/);

    // Call QA in one click: the channels become agent and customer, and the call is answered.
    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('button', { name: 'Add Call QA' }).click();
    await page.waitForURL(/\/scenarios\/analysis\/sca-/);
    assert.equal(await page.getByLabel('Name').inputValue(), 'Call QA');
    // The calls transcribed before keep channel_0 and channel_1: the page says so, and transcribes them again in one click.
    await page.getByText('Earlier calls need transcribing again').waitFor();
    await check(page, 'call-qa-speakers-named');
    // Come back to later (a new visit, nothing carried from the click), the page still says which calls cannot tell the agent.
    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('table', { name: 'Analysis scenarios' }).getByRole('link', { name: 'Call QA' }).click();
    await page.waitForURL(/\/scenarios\/analysis\/sca-/);
    const missing = page.locator('[data-speakers-missing="agent"]');
    await missing.getByText(/^\d+ calls? cannot tell who the agent is$/).waitFor();
    await missing.getByRole('button', { name: /^Transcribe (it|them) again with “Default/ }).waitFor();
    await check(page, 'call-qa-speakers-missing');
    await page.goBack();
    await page.goBack();
    await page.getByText('Earlier calls need transcribing again').waitFor();
    await page.getByRole('button', { name: 'Transcribe earlier calls again' }).click();
    // Its progress is followed here, and once the calls are transcribed Call QA is offered on them again.
    await page.locator('[data-transcribing-again]').getByText(/^(Transcribing \d+ calls again: \d+ of \d+ done|Transcribed again: \d+ of \d+ calls)\.$/).waitFor();
    await page.locator('[data-transcribing-again="completed"]').getByText(/^Transcribed again: \d+ of \d+ calls\.$/).waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'Answer “Call QA” on them again' }).waitFor();
    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByRole('table', { name: 'Recordings' }).getByRole('link').first().click();
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await page.getByLabel('Transcript', { exact: true }).locator('[data-speaker="agent"]').first().waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('[data-name-speakers]').count(), 0, 'named speakers need no pointer');
    await page.getByLabel('Analyse with', { exact: true }).first().selectOption({ label: 'Call QA' });
    // The chosen scenario's whole name on hover (a long one is cut in the box).
    assert.equal(await page.getByLabel('Analyse with', { exact: true }).first().getAttribute('title'), 'Call QA');
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.locator('[data-result] [data-question="greeting"] [data-answer="true"]').first().waitFor({ timeout: 60_000 });
    assert.match((await page.locator('[data-result] [data-question="greeting"] [data-scope]').first().textContent()) ?? '', /said by agent · first 15 s/);
    // The words a phrase rule found are shown in the turn they were said in, marked.
    const greetingEvidence = page.getByRole('list', { name: /^Evidence for: Did the agent greet/ }).first();
    assert.match((await greetingEvidence.locator('mark[data-found]').first().textContent()) ?? '', /thank you for calling/i);
    assert.match((await greetingEvidence.textContent()) ?? '', /this is sam/i, 'the rest of the turn around them');
    // No call here reads the recording notice: its No says what was looked for, as no passage shows it.
    assert.match((await page.locator('[data-result] [data-question="recording_notice"] [data-phrases-not-said]').first().textContent()) ?? '', /^Looked for “this call is recorded”, “this call may be recorded”, .* and 3 more: none was said\.$/);
    await check(page, 'call-qa');
    // Analysed again: the latest result shows, the earlier one is folded under it.
    await page.getByRole('button', { name: 'Analyse' }).click();
    await page.locator('[data-earlier]').getByText('1 earlier result of Call QA').waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('[data-result]:visible').count(), 1, 'one result shown per scenario');
    // Transcribed again, the call's answers say they were read from the transcript before.
    await page.getByRole('button', { name: 'Transcribe' }).click();
    await page.locator('[data-result] [data-earlier-transcript]').first().waitFor({ timeout: 60_000 });

    // Answers across calls: the call's row, and filters on the answers.
    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('table', { name: 'Analysis scenarios' }).getByRole('link', { name: 'Call QA' }).click();
    await page.getByRole('link', { name: 'Answers across calls' }).click();
    const answers = page.getByRole('table', { name: 'Answers' });
    await answers.locator('[data-question="greeting"][data-answer="true"]').waitFor({ timeout: 30_000 });
    // Its answers are of the transcript before the last: the row says so.
    assert.equal(await answers.locator('[data-call] [data-outdated]').textContent(), 'Answers of an earlier transcript: analyse again');
    await page.getByLabel('Filter: Did the agent greet the customer in the first 15 seconds?').click();
    await page.getByRole('option', { name: 'No', exact: true }).click();
    await page.getByText('No call matches.').waitFor();
    assert.match(page.url(), /answer\.greeting=false/, 'the filter is kept in the URL');
    await page.getByLabel('Filter: Did the agent greet the customer in the first 15 seconds?').click();
    await page.getByRole('option', { name: 'Yes', exact: true }).click();
    await answers.locator('[data-call]').first().waitFor();
    await check(page, 'answers');
    // Each page says what it is in its title (the tab, the history, a screen reader's page change).
    assert.match(await page.title(), /^Answers across calls · .+ · Hark$/);
    // "Clear filters" clears the answers' filters too, not only the calls'.
    await page.getByLabel('Filter: Did the agent greet the customer in the first 15 seconds?').click();
    await page.getByRole('option', { name: 'No', exact: true }).click();
    await page.getByText('No call matches.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await answers.locator('[data-call]').first().waitFor();
    assert.doesNotMatch(page.url(), /answer\./, 'no answer filter left in the URL');
    assert.equal(await page.getByLabel('Filter: Did the agent greet the customer in the first 15 seconds?').inputValue(), '');
    // On a phone each call is a block that fits the screen: the table does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    // (The page lays itself out for a phone once it has heard of the new width: waited for, not raced.)
    await page
      .waitForFunction(() => {
        const table = document.querySelector('table[aria-label="Answers"]');
        return table !== null && table.scrollWidth <= (table.parentElement?.clientWidth ?? 0) + 1;
      }, undefined, { timeout: 5_000 })
      .catch(() => assert.fail('the answers fit a phone\'s width'));
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  test('the transcription scenario editor sets speakers per channel and redaction', async () => {
    const { page } = owner;
    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('table', { name: 'Transcription scenarios' }).getByRole('link').first().click();
    // The form waits for the engines' catalog, which says which fields the engine takes: no field
    // appears later under the reader's hand.
    await page.getByRole('combobox', { name: 'Phrases to find in the audio' }).waitFor();
    let reply = () => {};
    const replied = new Promise<void>((resolve) => (reply = resolve));
    const engines = '**/api/v1/workspaces/*/engines';
    await page.route(engines, async (route) => {
      await replied;
      await route.continue();
    });
    // The scenario itself arrives while the catalog is held back: only the catalog keeps the form away.
    const scenarioRead = page.waitForResponse((response) => /\/transcription-scenarios\/[^/?]+$/.test(new URL(response.url()).pathname) && response.request().method() === 'GET');
    const reopened = page.reload();
    await scenarioRead;
    await page.getByText('Loading…').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save' }).count(), 0, 'no form before the catalog');
    reply();
    await reopened;
    await page.unroute(engines);
    await page.getByRole('combobox', { name: 'Phrases to find in the audio' }).waitFor();
    const speakers = page.locator('[data-section="speakers"]');
    // The Call QA template named the channels; a new workspace redacts card numbers.
    assert.equal(await speakers.getByLabel('Speaker of channel_0 (left)').inputValue(), 'agent');
    assert.equal(await speakers.getByLabel('Speaker of channel_1 (right)').inputValue(), 'customer');
    const redaction = page.locator('[data-section="redaction"]');
    assert.equal(await redaction.getByLabel('Card numbers').isChecked(), true);
    await speakers.getByLabel('Speaker of channel_1 (right)').fill('caller');
    await speakers.getByLabel('Metadata field naming the speakers of a call').fill('speakers');
    await redaction.getByLabel('Phone numbers').check();
    await redaction.getByLabel('Also silence them in the audio').check();
    const vocabulary = page.getByRole('combobox', { name: 'Vocabulary' });
    await vocabulary.fill('Zendesk');
    await vocabulary.press('Enter');
    await vocabulary.fill('HubSpot CRM');
    await vocabulary.press('Enter');
    const spot = page.getByRole('combobox', { name: 'Phrases to find in the audio' });
    await spot.fill('this call may be recorded');
    await spot.press('Enter');
    await check(page, 'transcription-scenario');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = await page.evaluate(async (url) => (await fetch(url)).json(), `/api/v1/workspaces/${workspaceUrl.split('/w/')[1]}/transcription-scenarios/${id}`);
    assert.deepEqual(
      { labels: saved.options.speaker_labels, field: saved.options.speaker_labels_field, redact: saved.options.redact, audio: saved.options.redact_audio, summary: saved.options.summary, vocabulary: saved.options.vocabulary, spot: saved.options.spot },
      { labels: { 0: 'agent', 1: 'caller' }, field: 'speakers', redact: ['credit_card', 'phone_number'], audio: true, summary: false, vocabulary: ['Zendesk', 'HubSpot CRM'], spot: ['this call may be recorded'] },
    );
  });

  test('settings: a retention out of range is said, not saved as another; an API key and a webhook are made (secrets shown once) and revoked', async () => {
    const { page } = owner;
    await page.goto(`${workspaceUrl}/settings`);
    const retention = page.getByLabel("Keep new recordings' audio for (days)");
    await retention.fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('From 1 to 3650 days').waitFor();
    // The default an empty field means is said, as the server has it.
    await page.getByText("Leave empty for the server's default: 7 days").waitFor();
    assert.equal(await retention.inputValue(), '0', 'the value typed stays as typed');
    const workspaceId = workspaceUrl.split('/w/')[1]!;
    const stored = await hark.runtime.ctx.db.selectFrom('workspaces').select('default_retention_days').where('id', '=', workspaceId).executeTakeFirstOrThrow();
    assert.equal(stored.default_retention_days, null, 'nothing saved');
    await check(page, 'settings-retention-refused');
    await page.goto(`${workspaceUrl}/settings?tab=keys`);
    await page.getByLabel('Key name').fill('Nightly export');
    await page.getByRole('button', { name: 'Create key' }).click();
    assert.match((await page.getByTestId('secret').textContent()) ?? '', /^hark_/);
    await check(page, 'settings-keys');
    await page.getByRole('button', { name: 'Done' }).click();
    // The key answers to the person who made it.
    await page.locator('tr[data-key="Nightly export"]').getByText(email).waitFor();
    // On a phone a key's Revoke is on the screen, not at the end of a row scrolled off to the side.
    await page.setViewportSize({ width: 390, height: 844 });
    const revokeBox = await page.getByRole('button', { name: 'Revoke Nightly export' }).boundingBox();
    assert.ok(revokeBox && revokeBox.x + revokeBox.width <= 390, `Revoke within the phone's width (ends at ${revokeBox ? revokeBox.x + revokeBox.width : '?'})`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('button', { name: 'Revoke Nightly export' }).click();
    // What cannot be undone asks first.
    const dialog = page.getByRole('dialog', { name: 'Revoke the key “Nightly export”?' });
    await dialog.waitFor();
    await page.waitForFunction(() => getComputedStyle(document.querySelector('[role="dialog"]')!).opacity === '1');
    await check(page, 'confirm-revoke');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.getByRole('button', { name: 'Revoke Nightly export' }).waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hark-events');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    assert.match((await page.getByTestId('secret').textContent()) ?? '', /^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    // Nothing listens on port 9: the delivery is logged as failed, with its error.
    await page.getByRole('table', { name: 'Deliveries' }).getByText('webhook.test').waitFor({ timeout: 30_000 });
    // Where it was sent, the test says how it fared: not delivered, and why.
    await page.locator('[data-test-outcome="failed"]').getByText(/^Test event not delivered: /).waitFor({ timeout: 30_000 });
    await check(page, 'settings-webhooks');
    await page.getByRole('button', { name: 'Delete the webhook to http://127.0.0.1:9/hark-events' }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete the webhook to http://127.0.0.1:9/hark-events' }).waitFor({ state: 'detached' });
  });

  test('a viewer sees no Upload button, and the API refuses their upload', async () => {
    const registered = await hark.request({ method: 'POST', url: '/api/v1/accounts', payload: { email: viewerEmail, password: PASSWORD, workspace_name: 'Own' } });
    assert.equal(registered.statusCode, 201);
    const { page } = owner;
    await page.goto(`${workspaceUrl}/settings?tab=people`);
    await page.getByLabel('Add a person by e-mail').fill(viewerEmail);
    await page.getByLabel('Role', { exact: true }).first().click();
    await page.getByRole('option', { name: /^Viewer/ }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('cell', { name: viewerEmail, exact: true }).waitFor();
    await check(page, 'settings-people');
    assert.equal(await page.getByRole('button', { name: /^Remove / }).count(), 1, 'the only owner cannot be removed: only the viewer has a Remove button');
    await page.getByText('owner (the only one)').waitFor();

    const viewer = await open(browser, base);
    await viewer.page.goto('/sign-in');
    await viewer.page.getByLabel('E-mail').fill(viewerEmail);
    await viewer.page.locator('input[type=password]').fill(PASSWORD);
    await viewer.page.getByRole('button', { name: 'Sign in' }).click();
    await viewer.page.waitForURL('**/recordings');
    await viewer.page.goto(`${workspaceUrl}/recordings`);
    await viewer.page.getByRole('table', { name: 'Recordings' }).waitFor();
    assert.equal(await viewer.page.getByRole('button', { name: 'Upload', exact: true }).count(), 0);
    await check(viewer.page, 'recordings-viewer');

    const session = await (await viewer.context.request.get('/api/v1/sessions/current')).json();
    const refused = await viewer.context.request.post(`${workspaceUrl.replace(base, '').replace('/w/', '/api/v1/workspaces/')}/recordings/import`, {
      headers: { 'x-csrf-token': session.csrf_token, origin: base },
      data: { url: 'http://127.0.0.1:9/a.wav' },
    });
    assert.equal(refused.status(), 403);
    assert.equal((await refused.json()).code, 'insufficient_role');
    assert.deepEqual(viewer.problems, [], 'no console errors or failed requests for the viewer');
    await viewer.context.close();

    // Removing a person asks first; Cancel keeps them.
    await page.getByRole('button', { name: `Remove ${viewerEmail}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${viewerEmail}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('cell', { name: viewerEmail, exact: true }).count(), 1, 'still a member after Cancel');
    await page.getByRole('button', { name: `Remove ${viewerEmail}` }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByRole('cell', { name: viewerEmail, exact: true }).waitFor({ state: 'detached' });
  });

  test('an invited person joins by the link, creating their account', async () => {
    const { page } = owner;
    await page.goto(`${workspaceUrl}/settings?tab=people`);
    await page.getByLabel('Add a person by e-mail').fill(`invitee-${Date.now()}@example.com`);
    // No account has that address: Add is refused; inviting them instead clears the refusal.
    const problemsBefore = owner.problems.length;
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    // The refusal is said as the way on (not as a red "Not found" beside it).
    await page.locator('[data-invite-instead]').getByText(/No account uses invitee-.*“Invite by link” makes a link/).waitFor();
    const refusal = page.getByRole('alert').filter({ hasText: /account with invitee-/ });
    assert.equal(await refusal.count(), 0);
    askedFor(owner.problems, problemsBefore, 404, /\/members$/);
    await page.getByRole('button', { name: 'Invite by link' }).click();
    await page.getByTestId('secret').waitFor();
    assert.equal(await refusal.count(), 0, 'the refusal of the add is gone once the invitation is made');
    assert.equal(await page.locator('[data-invite-instead]').count(), 0);
    const link = ((await page.getByTestId('secret').textContent()) ?? '').trim();
    assert.match(link, /\/invite\/[A-Za-z0-9_-]+$/);
    await page.getByRole('button', { name: 'Done' }).click();

    const invitee = await open(browser, base);
    await invitee.page.goto(link);
    await invitee.page.getByText('Join Support calls').waitFor();
    await invitee.page.locator('input[type=password]').fill(PASSWORD);
    await check(invitee.page, 'invite');
    await invitee.page.getByRole('button', { name: 'Join the workspace' }).click();
    await invitee.page.waitForURL('**/recordings');
    await invitee.page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    assert.deepEqual(invitee.problems, [], 'no console errors or failed requests for the invitee');
    await invitee.context.close();
  });

  test('sign-out ends the session', async () => {
    const { page, context } = owner;
    // Signed in, the sign-up and sign-in pages say so and lead back to the workspace.
    await page.goto('/sign-up');
    await page.getByText('You are already signed in').waitFor();
    await check(page, 'sign-up-signed-in');
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Open your workspace' }).click();
    await page.waitForURL(`${workspaceUrl}/recordings`);
    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    assert.equal((await context.request.get('/api/v1/sessions/current')).status(), 401);
    await page.goto(`${workspaceUrl}/recordings`);
    await page.waitForURL('**/sign-in?next=**');
  });

  test('no console errors and no failed requests on the way', () => {
    assert.deepEqual(owner.problems, []);
    assert.ok(seen.length >= 12, `pages checked: ${seen.join(', ')}`);
  });
});
