// A phrase spotted in the audio, as a person sees it in Chromium: the scenario editor takes the
// phrase, a call that says it (in words the recogniser may garble) is transcribed on upload, and
// the transcript underlines the words heard as the phrase, naming it. Then Call QA, just added,
// offers to answer every new call by itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { stereoCall } from './helpers/audio.ts';
import { accessibilityProblems, launch, open, screenshots, signUp, WEB_DIR, webReady, type Watched } from './helpers/browser.ts';
import { startHark, type Hark } from './helpers/harness.ts';

const ready = webReady();
const PHRASE = 'this call may be recorded';

describe('spotted phrases in the transcript, in Chromium', { skip: ready ? false : 'needs Chromium and the built web interface (scripts/test.sh installs and builds them)' }, () => {
  let hark: Hark;
  let browser: Browser;
  let user: Watched;

  before(async () => {
    hark = await startHark({ backend: 'pglite', config: { webDir: WEB_DIR, autoTranscribe: true } });
    await hark.app.listen({ host: '127.0.0.1', port: 0 });
    const address = hark.app.server.address();
    browser = await launch();
    user = await open(browser, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  });
  after(async () => {
    await browser?.close();
    await hark?.destroy();
  });

  async function check(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshots(page, name);
    assert.deepEqual(await accessibilityProblems(page), [], `${name}: accessibility`);
  }

  test('the words heard as a spotted phrase are underlined in the transcript, with the phrase named', async () => {
    const { page } = user;
    const workspaceUrl = await signUp(page, 'Spotting', 'spot');

    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('table', { name: 'Transcription scenarios' }).getByRole('link').first().click();
    const spot = page.getByRole('combobox', { name: 'Phrases to find in the audio' });
    await spot.fill(PHRASE);
    await spot.press('Enter');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();

    const call = stereoCall([{ channel: 0, at: 0.3, text: `Hello, ${PHRASE} for quality.` }, { channel: 1, at: 4, text: 'I would like to pay my bill.' }], 8);
    await page.goto(`${workspaceUrl}/recordings`);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.locator('input[type=file]').first().setInputFiles(call);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await page.getByText('Uploaded', { exact: true }).first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => /Transcribed/.test(document.querySelector('table[aria-label="Recordings"] tbody tr')?.textContent ?? ''), undefined, { timeout: 120_000, polling: 1000 });
    await page.getByRole('table', { name: 'Recordings' }).getByRole('link').first().click();

    const marked = page.getByLabel('Transcript', { exact: true }).locator(`[data-spotted-word="${PHRASE}"]`);
    await marked.first().waitFor({ timeout: 30_000 });
    assert.ok((await marked.count()) >= 3, 'the phrase\'s words are marked');
    assert.equal(await marked.first().getAttribute('title'), `Heard in the audio: “${PHRASE}”`);
    assert.equal(await page.getByLabel('Transcript', { exact: true }).locator('[data-spotted-word]').count(), await marked.count(), 'nothing else is marked');
    await check(page, 'spotted-in-transcript');
  });

  test('Call QA, just added, offers to answer every new call by itself', async () => {
    const { page } = user;
    const workspaceUrl = page.url().replace(/\/recordings\/.*$/, '');
    await page.goto(`${workspaceUrl}/scenarios`);
    await page.getByRole('button', { name: 'Add Call QA' }).click();
    await page.waitForURL(/\/scenarios\/analysis\/sca-/);
    await page.getByText('Answer every new call?').waitFor();
    await check(page, 'call-qa-added-offer');
    await page.getByRole('button', { name: 'Answer new calls automatically' }).click();
    await page.getByText('New calls are answered by themselves').waitFor();
    assert.equal(await page.getByLabel('Automatic: analyse every new transcript with this scenario').isChecked(), true);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const saved = await page.evaluate(async (url) => (await fetch(url)).json(), `/api/v1/workspaces/${workspaceUrl.split('/w/')[1]}/analysis-scenarios/${id}`);
    assert.equal(saved.auto, true);
    // Opened again later, the page offers nothing.
    await page.goto(page.url());
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.getByText('Answer every new call?').count(), 0);
  });

  test('no console errors and no failed requests on the way', () => {
    assert.deepEqual(user.problems, []);
  });
});
