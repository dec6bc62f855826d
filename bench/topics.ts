// Topics on recognised speech: the key phrases of the formatting bench's passages, spoken by
// flite and recognised by pocketsphinx, with and without leaving out words heard with little
// confidence (the recogniser's posterior below DOUBTFUL_BELOW). Two figures per set: how many key
// phrases were said (every word of the phrase is in the passage), and how many of the key phrases
// of the passage's own text are found. Dev sets apart from held-out sets.
// Run: npx tsx bench/topics.ts [--dev-only]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { pocketsphinxEngine } from '../src/engines/transcription/pocketsphinx.ts';
import { DOUBTFUL_BELOW, keyPhrases } from '../src/core/transcripts/key-phrases.ts';
import { fliteWav } from './flite.ts';
import { usage } from './usage.ts';

usage(`Usage: npx tsx bench/topics.ts [--dev-only]
Key phrases of flite passages recognised by pocketsphinx, with and without leaving out words heard
with little confidence: the share said, and the passage text's own key phrases found (about 10 min).`);

const here = import.meta.dirname;
const sets = process.argv.includes('--dev-only') ? ['dev', 'dev-2'] : ['dev', 'dev-2', 'holdout', 'holdout-2'];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-topics-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const engine = pocketsphinxEngine(loadConfig({ HARK_DATA_DIR: path.join(dir, 'data'), HARK_LOG_LEVEL: 'warn' }), 1);
const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9' ]/g, ' ').split(/\s+/).filter(Boolean);

console.log(`Topics on recognised speech (words below ${DOUBTFUL_BELOW} confidence left out, or not)`);
console.log('set          clips   said, all words        said, confident words   text topics found: all / confident');
for (const name of sets) {
  const set = JSON.parse(fs.readFileSync(path.join(here, `formatting-${name}.json`), 'utf8')) as { voices: string[]; passages: { text: string }[] };
  const tally = { all: { shown: 0, said: 0, found: 0 }, confident: { shown: 0, said: 0, found: 0 }, truth: 0, clips: 0 };
  for (const voice of set.voices) {
    for (const [i, passage] of set.passages.entries()) {
      const file = path.join(dir, `${name}-${voice}-${i}.wav`);
      const seconds = fliteWav(passage.text, voice, file);
      const result = await engine.transcribe({ audioPath: file, durationSeconds: seconds, language: 'en', model: 'en-us', wordTimestamps: true }, { signal: new AbortController().signal, onProgress: () => {} });
      const heard = result.words.map((w) => ({ ...w, channel: 0 }));
      const segments = result.segments.map((s) => ({ ...s, channel: 0 }));
      const spoken = new Set(words(passage.text));
      // A verb's topic is its lemma: "refund" was said where "refunded" was.
      const said = (phrase: string) => words(phrase).every((w) => spoken.has(w) || (w.length >= 4 && [...spoken].some((s) => s.startsWith(w))));
      const truth = keyPhrases([{ text: passage.text, start: 0, end: seconds }]).map((k) => k.text.toLowerCase());
      tally.truth += truth.length;
      tally.clips++;
      for (const [kind, phrases] of [['all', keyPhrases(segments)], ['confident', keyPhrases(segments, heard)]] as const) {
        tally[kind].shown += phrases.length;
        tally[kind].said += phrases.filter((k) => said(k.text)).length;
        tally[kind].found += truth.filter((t) => phrases.some((k) => k.text.toLowerCase() === t)).length;
      }
    }
  }
  const share = (said: number, shown: number) => `${said}/${shown} (${((100 * said) / Math.max(1, shown)).toFixed(1)} %)`.padEnd(23);
  console.log(`${name.padEnd(12)} ${String(tally.clips).padEnd(7)} ${share(tally.all.said, tally.all.shown)} ${share(tally.confident.said, tally.confident.shown)} ${tally.all.found} / ${tally.confident.found} of ${tally.truth}`);
}
