// Custom vocabulary on pocketsphinx: recall of terms its dictionary lacks, with and without the
// scenario's vocabulary, the WER of the other words, terms heard where none was said, and the
// added decode time. Sentences are spoken by Debian's flite voices. The weight is chosen on the dev
// terms only; the held-out terms (other names, other voices) are reported apart.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPocketsphinx, type Pocketsphinx } from '../src/engines/transcription/pocketsphinx-native.ts';
import { decoderVocabulary, writeVocabulary } from '../src/engines/transcription/pocketsphinx-vocabulary.ts';
import { spokenWords } from '../src/engines/transcription/pronunciation.ts';
import { wer } from '../src/wer.ts';
import { usage } from './usage.ts';

usage(`Usage: npx tsx bench/vocabulary.ts
Recall of terms the dictionary lacks with and without a vocabulary, the other words' WER, false
terms on sentences without them, and the decode time, on flite speech; weight chosen on dev, held-out reported apart.`);

interface Set {
  name: string;
  voices: string[];
  terms: string[];
  /** Sentences saying one term each ({} marks it). */
  said: string[];
  /** Sentences saying none. */
  unsaid: string[];
}

// The sets live beside this file, as data: the held-out one is never written into code.
const sets: Set[] = [
  { name: 'dev', file: 'vocabulary-dev.json' },
  { name: 'dev-2', file: 'vocabulary-dev-2.json' },
  { name: 'held-out', file: 'vocabulary-holdout.json' },
  { name: 'held-out-2', file: 'vocabulary-holdout-2.json' },
].map(({ name, file }) => ({ name, ...(JSON.parse(fs.readFileSync(path.join(import.meta.dirname, file), 'utf8')) as Omit<Set, 'name'>) }));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-vocabulary-bench-'));
let made = 0;
function pcm(text: string, voice: string): Buffer {
  const wav = path.join(dir, `${made++}.wav`);
  execFileSync('flite', ['-voice', voice, '-t', text, '-o', wav]);
  return execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', wav, '-ar', '16000', '-ac', '1', '-f', 's16le', '-'], { maxBuffer: 64 << 20 });
}

interface Clip {
  reference: string;
  term: string | null;
  audio: Buffer;
}
function clips(set: Set): Clip[] {
  const out: Clip[] = [];
  set.said.forEach((sentence, i) => {
    const term = set.terms[i % set.terms.length]!;
    const voice = set.voices[i % set.voices.length]!;
    const reference = sentence.replace('{}', term);
    out.push({ reference, term, audio: pcm(reference, voice) });
  });
  set.unsaid.forEach((sentence, i) => out.push({ reference: sentence, term: null, audio: pcm(sentence, set.voices[i % set.voices.length]!) }));
  return out;
}

interface Score {
  recall: number;
  falseTerms: number;
  otherWer: number;
  seconds: number;
}
function score(set: Set, data: Clip[], decoder: Pocketsphinx, vocabulary: ReturnType<typeof decoderVocabulary> | null): Score {
  let hits = 0;
  let falseTerms = 0;
  let errors = 0;
  let words = 0;
  const started = performance.now();
  const termWords = new Set(set.terms.flatMap((t) => spokenWords(t)));
  for (const clip of data) {
    const heard = decoder.decode(clip.audio).words;
    const hypothesis = (vocabulary ? writeVocabulary(heard, vocabulary) : heard).map((w) => w.word);
    const said = spokenWords(clip.reference);
    if (clip.term && spokenWords(clip.term).every((w) => hypothesis.includes(w))) hits += 1;
    for (const term of set.terms) if (term !== clip.term && spokenWords(term).every((w) => hypothesis.includes(w))) falseTerms += 1;
    // The other words: the reference without its term against what was heard without any term.
    const reference = said.filter((w) => !termWords.has(w)).join(' ');
    const rate = wer(reference, hypothesis.filter((w) => !termWords.has(w)).join(' '));
    errors += rate * reference.split(' ').length;
    words += reference.split(' ').length;
  }
  const saidClips = data.filter((c) => c.term).length;
  return { recall: hits / saidClips, falseTerms, otherWer: errors / words, seconds: (performance.now() - started) / 1000 };
}

const WEIGHTS = [1, 3, 10, 30]; // per cent of the language model
const results: Record<string, Record<string, Score>> = {};
const plain = createPocketsphinx();
for (const set of sets) {
  const data = clips(set);
  results[set.name] = { without: score(set, data, plain, null) };
  for (const weight of WEIGHTS) {
    const vocabulary = decoderVocabulary(set.terms.map((phrase) => ({ phrase })));
    const decoder = createPocketsphinx({ words: vocabulary.words, wordWeight: weight });
    results[set.name]![`weight ${weight}`] = score(set, data, decoder, vocabulary);
    decoder.close();
  }
}
plain.close();
fs.rmSync(dir, { recursive: true, force: true });

console.log('Custom vocabulary on pocketsphinx, flite speech (goal on held-out: recall ≥ 0.8 with it, other words\' WER no worse than +1 point)');
console.log('set        decoder        recall  false terms  other-words WER  decode s  time ×');
for (const [set, rows] of Object.entries(results)) {
  const base = rows.without!;
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${set.padEnd(10)} ${name.padEnd(13)} ${r.recall.toFixed(2).padStart(7)}  ${String(r.falseTerms).padStart(11)}  ${(r.otherWer * 100).toFixed(1).padStart(14)} %  ${r.seconds.toFixed(1).padStart(8)}  ${(r.seconds / base.seconds).toFixed(2).padStart(6)}`);
  }
}
// Chosen on the dev sets pooled (each set's figures weighed by its sentences); held-out only reported.
const devSets = sets.filter((set) => set.name.startsWith('dev'));
const pooled = (weight: number, key: 'recall' | 'otherWer') => devSets.reduce((sum, set) => sum + results[set.name]![`weight ${weight}`]![key] * set.said.length, 0) / devSets.reduce((sum, set) => sum + set.said.length, 0);
const falseOnDev = (weight: number) => devSets.reduce((sum, set) => sum + results[set.name]![`weight ${weight}`]!.falseTerms, 0);
const chosen = [...WEIGHTS].sort((a, b) => pooled(b, 'recall') - pooled(a, 'recall') || falseOnDev(a) - falseOnDev(b) || pooled(a, 'otherWer') - pooled(b, 'otherWer'))[0]!;
const heldOut = sets.filter((set) => !set.name.startsWith('dev')).map((set) => `${set.name} ${results[set.name]![`weight ${chosen}`]!.recall.toFixed(2)}`);
console.log(`weight chosen on the dev sets: ${chosen} (Hark uses VOCABULARY_WEIGHT); recall with it: ${heldOut.join(', ')}`);
