// Phrases spotted in the audio, measured: pocketsphinx's keyword spotting (a scenario's `spot`)
// against matching the transcript's words as phrase rules do (one word in four may differ), and
// the two together as phrase rules use them, on flite calls that do and do not say each phrase.
// Two sets, each a JSON file beside this one: dev and held-out (other phrases, sentences and
// voices; never used to choose anything). Per set: precision, recall and F1 over every pair of a
// call and a phrase, and the time spotting adds to the decode.
// Run: npx tsx bench/spotting.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { pocketsphinxEngine } from '../src/engines/transcription/pocketsphinx.ts';
import { matchPhrases, normalWords, timedTokens } from '../src/core/transcripts/phrase-match.ts';
import { count, f1, fliteWav, type Counts } from './flite.ts';
import { usage } from './usage.ts';

usage(`Usage: npx tsx bench/spotting.ts
Precision, recall and F1 of keyword spotting against matching the transcript, and of both together,
on flite calls that do and do not say each phrase; dev and held-out apart, and the decode time spotting adds.`);

interface SpotSet {
  voices: string[];
  phrases: string[];
  clips: string[];
}
const here = import.meta.dirname;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-spotting-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const engine = pocketsphinxEngine(loadConfig({ HARK_DATA_DIR: path.join(dir, 'data'), HARK_LOG_LEVEL: 'warn' }), 1);
const said = (text: string, phrase: string) => ` ${normalWords(text).join(' ')} `.includes(` ${normalWords(phrase).join(' ')} `);
const prf = (counts: Counts) => {
  const { precision, recall, f1: f } = f1(counts);
  return `${precision.toFixed(2)} / ${recall.toFixed(2)} / ${f.toFixed(2)}`;
};

console.log('Phrases spotted in the audio, flite speech (goal on held-out: spotting F1 ≥ 0.9 and above transcript matching)');
console.log('set        method                 P / R / F1            decode s   with spotting s');
for (const name of ['dev', 'holdout']) {
  const set = JSON.parse(fs.readFileSync(path.join(here, `spotting-${name}.json`), 'utf8')) as SpotSet;
  const spotted = { tp: 0, fp: 0, fn: 0 };
  const matched = { tp: 0, fp: 0, fn: 0 };
  const either = { tp: 0, fp: 0, fn: 0 };
  let plain = 0;
  let spotting = 0;
  for (const voice of set.voices) {
    for (const [i, text] of set.clips.entries()) {
      const file = path.join(dir, `${name}-${voice}-${i}.wav`);
      const request = { audioPath: file, durationSeconds: fliteWav(text, voice, file), language: 'en', model: 'en-us', wordTimestamps: true };
      const control = { signal: new AbortController().signal, onProgress: () => {} };
      let started = performance.now();
      await engine.transcribe(request, control);
      plain += (performance.now() - started) / 1000;
      started = performance.now();
      const result = await engine.transcribe({ ...request, spot: set.phrases }, control);
      spotting += (performance.now() - started) / 1000;
      const heard = new Set((result.spotted ?? []).map((s) => s.phrase));
      const tokens = timedTokens(result.words);
      for (const phrase of set.phrases) {
        const truth = said(text, phrase);
        const bySpotting = heard.has(normalWords(phrase).join(' '));
        const byWords = matchPhrases([phrase], tokens).length > 0;
        count(spotted, truth, bySpotting);
        count(matched, truth, byWords);
        count(either, truth, bySpotting || byWords);
      }
    }
  }
  const clips = set.voices.length * set.clips.length;
  console.log(`${name.padEnd(10)} ${'transcript matching'.padEnd(22)} ${prf(matched).padEnd(21)} ${plain.toFixed(1).padStart(8)}`);
  console.log(`${name.padEnd(10)} ${'spotting'.padEnd(22)} ${prf(spotted).padEnd(21)} ${' '.repeat(8)}   ${spotting.toFixed(1)} (+${(((spotting - plain) / plain) * 100).toFixed(0)} %)`);
  console.log(`${name.padEnd(10)} ${'either (phrase rules)'.padEnd(22)} ${prf(either)}`);
  console.log(`${' '.repeat(11)}(${clips} calls × ${set.phrases.length} phrases)`);
}
process.exit(0);
