// ASR bench: WER and real-time factor of Hark's pipeline through the HTTP API next to the raw
// pocketsphinx engine on the same audio, in the same run, over Debian's pocketsphinx-testdata.
// Also: two recordings at once against one, on the machine's cores.
// Run: npx tsx bench/asr.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { createPocketsphinx } from '../src/engines/transcription/pocketsphinx-native.ts';
import { pocketsphinxEngine } from '../src/engines/transcription/pocketsphinx.ts';
import { startRuntime } from '../src/runtime.ts';
import { wer, wordErrors } from '../src/wer.ts';
import { usage } from './usage.ts';

usage('Usage: npx tsx bench/asr.ts\nWER and real-time factor of the pipeline over HTTP beside the raw decoder, on Debian\'s pocketsphinx test clips and a 100 s recording.');

const DATA = '/usr/share/pocketsphinx/test/data';

function corpus(): { name: string; file: string; reference: string }[] {
  const read = (dir: string, list: string) =>
    fs.readFileSync(path.join(DATA, dir, list), 'utf8').trim().split('\n').map((line) => {
      const match = /^(.*)\(([^)]+)\)\s*$/.exec(line);
      if (!match?.[1] || !match[2]) throw new Error(`bad line ${line}`);
      return { name: `${dir}/${match[2]}`, file: path.join(DATA, dir, `${match[2]}.wav`), reference: match[1].replace(/<\/?s>/g, '').trim() };
    });
  const items = [...read('librivox', 'transcription'), ...read('cards', 'cards.transcription')];
  const goforward = path.join(scratch, 'goforward.wav');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', path.join(DATA, 'goforward.raw'), goforward]);
  items.push({ name: 'goforward', file: goforward, reference: 'go forward ten meters' });
  return items;
}

function pcmOf(file: string): Buffer {
  return execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-f', 's16le', '-'], { maxBuffer: 1 << 30 });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-bench-'));
const scratch = path.join(dataDir, 'corpus');
fs.mkdirSync(scratch);
const items = corpus();
// The bench polls each run every 50 ms: more than the default 600 requests a minute.
const config = loadConfig({ HARK_DATA_DIR: dataDir, HARK_LOG_LEVEL: 'warn', PORT: '0', HARK_METRICS_TOKEN: 'bench', HARK_RATE_LIMIT_PER_MINUTE: '1000000' });
const runtime = await startRuntime(config, { http: true, workers: true });
const app = runtime.app!;
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const account = (await (await fetch(`${base}/api/v1/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'bench bench bench', workspace_name: 'bench' }) })).json()) as { workspace_id: string; api_key: string };
const P = `${base}/api/v1/workspaces/${account.workspace_id}`;
const headers = { authorization: `Bearer ${account.api_key}` };

/** Where the time of one recording went, in seconds (from the cards' timestamps). */
interface Phases {
  upload: number;
  prepare: number;
  queue: number;
  decode: number;
  after: number;
}
const phaseTotals: Phases = { upload: 0, prepare: 0, queue: 0, decode: 0, after: 0 };

async function pipeline(file: string): Promise<{ text: string; seconds: number; audio: number; phases: Phases }> {
  const started = performance.now();
  const startedAt = Date.now();
  const form = new FormData();
  form.set('file', await fs.openAsBlob(file, { type: 'audio/wav' }), path.basename(file));
  const recording = (await (await fetch(`${P}/recordings`, { method: 'POST', headers, body: form })).json()) as { id: string };
  const uploadedAt = Date.now();
  const run = (await (await fetch(`${P}/recordings/${recording.id}/transcription-runs`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' })).json()) as { id: string };
  let card: { status: string; error_message: string; started_at: string; completed_at: string };
  for (;;) {
    card = (await (await fetch(`${P}/transcription-runs/${run.id}`, { headers })).json()) as typeof card;
    if (card.status === 'completed') break;
    if (card.status === 'failed') throw new Error(card.error_message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The words as recognised: the transcript's text is formatted ("10" for "ten"), the references are not.
  const transcript = (await (await fetch(`${P}/transcription-runs/${run.id}/transcript`, { headers })).json()) as { words: { word: string }[]; duration_seconds: number };
  const seconds = (performance.now() - started) / 1000;
  const prepared = (await (await fetch(`${P}/recordings/${recording.id}`, { headers })).json()) as { updated_at: string };
  const at = (iso: string) => new Date(iso).getTime();
  const phases: Phases = {
    upload: (uploadedAt - startedAt) / 1000,
    prepare: Math.max(0, at(prepared.updated_at) - uploadedAt) / 1000,
    queue: Math.max(0, at(card.started_at) - Math.max(uploadedAt, at(prepared.updated_at))) / 1000,
    decode: (at(card.completed_at) - at(card.started_at)) / 1000,
    after: Math.max(0, startedAt + seconds * 1000 - at(card.completed_at)) / 1000,
  };
  for (const key of Object.keys(phases) as (keyof Phases)[]) phaseTotals[key] += phases[key];
  return { text: transcript.words.map((w) => w.word).join(' '), seconds, audio: transcript.duration_seconds, phases };
}

/**
 * Seconds so far from the process's /metrics: the decoders' by phase (`cmn`…), and the pipeline's
 * by kind and stage (`preparation probe`, `transcription store`…).
 */
async function metricSeconds(): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer bench' } })).text();
  const out: Record<string, number> = {};
  for (const match of text.matchAll(/^hark_transcription_decode_seconds_total\{[^}]*phase="(\w+)"[^}]*\} (\S+)$/gm)) out[match[1]!] = Number(match[2]);
  for (const match of text.matchAll(/^hark_pipeline_seconds_total\{kind="(\w+)",stage="(\w+)"\} (\S+)$/gm)) out[`${match[1]} ${match[2]}`] = Number(match[3]);
  return out;
}

const decoder = createPocketsphinx();
await pipeline(items[0]!.file); // warm: the worker loads its model once
for (const key of Object.keys(phaseTotals) as (keyof Phases)[]) phaseTotals[key] = 0;
const totals = { ours: { errors: 0, words: 0, seconds: 0 }, raw: { errors: 0, words: 0, seconds: 0 }, audio: 0 };
console.log('file'.padEnd(52), 'words', ' WER ours', ' WER raw', ' RTF ours', ' RTF raw', ' ours/raw');
for (const item of items) {
  const ours = await pipeline(item.file);
  const pcm = pcmOf(item.file);
  const t = performance.now();
  const raw = await decoder.decodeAsync(pcm);
  const rawSeconds = (performance.now() - t) / 1000;
  const audio = pcm.length / 32000;
  const a = wordErrors(item.reference, ours.text);
  const b = wordErrors(item.reference, raw.text);
  totals.ours.errors += a.errors;
  totals.ours.words += a.words;
  totals.ours.seconds += ours.seconds;
  totals.raw.errors += b.errors;
  totals.raw.words += b.words;
  totals.raw.seconds += rawSeconds;
  totals.audio += audio;
  console.log(
    item.name.padEnd(52),
    String(a.words).padStart(5),
    `${(wer(item.reference, ours.text) * 100).toFixed(1)}%`.padStart(9),
    `${(wer(item.reference, raw.text) * 100).toFixed(1)}%`.padStart(9),
    (ours.seconds / audio).toFixed(3).padStart(9),
    (rawSeconds / audio).toFixed(3).padStart(8),
    (ours.seconds / rawSeconds).toFixed(2).padStart(9),
  );
}
console.log(
  'TOTAL'.padEnd(52),
  String(totals.ours.words).padStart(5),
  `${((totals.ours.errors / totals.ours.words) * 100).toFixed(1)}%`.padStart(9),
  `${((totals.raw.errors / totals.raw.words) * 100).toFixed(1)}%`.padStart(9),
  (totals.ours.seconds / totals.audio).toFixed(3).padStart(9),
  (totals.raw.seconds / totals.audio).toFixed(3).padStart(8),
  (totals.ours.seconds / totals.raw.seconds).toFixed(2).padStart(9),
);
console.log('(ours = upload + preparation + queue + decode through the HTTP API; raw = the same decoder on the same PCM; target ours/raw <= 1.1 on long files)');
const phaseSum = Object.values(phaseTotals).reduce((a, b) => a + b, 0);
console.log(
  `where our time went (all files): ${(Object.entries(phaseTotals) as [string, number][])
    .map(([name, value]) => `${name} ${value.toFixed(1)} s (${((100 * value) / phaseSum).toFixed(0)} %)`)
    .join(', ')}; the raw decoder alone: ${totals.raw.seconds.toFixed(1)} s`,
);

const longest = items.slice(0, 5).map((i) => i.file);
const joined = path.join(dataDir, 'joined.wav');
execFileSync('sox', [...longest, joined]);
// The issue's figure: upload → transcript of a recording of about 100 s against the raw decoder on
// the same audio, measured here one after the other.
const long = path.join(dataDir, 'long.wav');
execFileSync('sox', [joined, joined, joined, joined, long]);
const longReference = Array.from({ length: 4 }, () => items.slice(0, 5).map((i) => i.reference).join(' ')).join(' ');
const decodeBefore = await metricSeconds();
const longOurs = await pipeline(long);
const decodePhases = Object.fromEntries(Object.entries(await metricSeconds()).map(([phase, value]) => [phase, value - (decodeBefore[phase] ?? 0)]));
const longPcm = pcmOf(long);
const t3 = performance.now();
const longRawResult = await decoder.decodeAsync(longPcm);
const longRaw = (performance.now() - t3) / 1000;
console.log(
  `a ${longOurs.audio.toFixed(1)} s recording, upload to transcript: ${longOurs.seconds.toFixed(2)} s; the raw decoder on the same audio: ${longRaw.toFixed(2)} s; ` +
    `ratio ${(longOurs.seconds / longRaw).toFixed(2)} (goal <= 1.10); ${(Object.entries(longOurs.phases) as [string, number][]).map(([name, value]) => `${name} ${value.toFixed(2)} s`).join(', ')}`,
);
const fmt = (timings: Record<string, number>) => ['cmn', 'search', 'lattice'].map((phase) => `${phase} ${(timings[phase] ?? 0).toFixed(2)} s`).join(', ');
const stages = ['preparation fetch', 'preparation probe', 'preparation convert', 'preparation store', 'transcription execute', 'transcription store'];
console.log(`  by stage (the service's own clock): ${stages.map((stage) => `${stage} ${(decodePhases[stage] ?? 0).toFixed(2)} s`).join(', ')}`);
console.log(`  inside the decode (decoder time, summed over the ${os.availableParallelism()} pieces decoded side by side): ${fmt(decodePhases)}; the raw decoder: ${fmt({ ...longRawResult.timings })}`);
console.log(`  WER on it: ours ${(wer(longReference, longOurs.text) * 100).toFixed(1)} %, the raw decoder ${(wer(longReference, longRawResult.text) * 100).toFixed(1)} %`);

// One channel of a call recorded a party per channel: the five longest clips with the other
// party's turns between them as digital silence. The engine (one core, as the raw decoder) shortens
// those silences; the raw decoder hears them whole.
const channel = path.join(dataDir, 'channel.wav');
const gaps = [6, 9, 4, 12, 7];
const parts = longest.map((file, i) => {
  const part = path.join(dataDir, `part-${i}.wav`);
  execFileSync('sox', [file, part, 'pad', '0', String(gaps[i])]);
  return part;
});
execFileSync('sox', [...parts, channel]);
const channelReference = items.slice(0, 5).map((i) => i.reference).join(' ');
const engine = pocketsphinxEngine(config, 1);
const control = { signal: new AbortController().signal, onProgress: () => {} };
// Warm, as the raw decoder is: the engine loads its decoder on its first run.
await engine.transcribe({ audioPath: items[0]!.file, durationSeconds: 0, language: 'en', model: 'default', wordTimestamps: true }, control);
const t4 = performance.now();
const channelOurs = await engine.transcribe({ audioPath: channel, durationSeconds: 0, language: 'en', model: 'default', wordTimestamps: true }, control);
const channelOursSeconds = (performance.now() - t4) / 1000;
const channelPcm = pcmOf(channel);
const t5 = performance.now();
const channelRaw = await decoder.decodeAsync(channelPcm);
const channelRawSeconds = (performance.now() - t5) / 1000;
console.log(
  `a call's channel of ${(channelPcm.length / 32000).toFixed(1)} s, ${gaps.reduce((a, b) => a + b, 0)} s of it the other party's turns (silence): the engine ${channelOursSeconds.toFixed(2)} s, ` +
    `the raw decoder ${channelRawSeconds.toFixed(2)} s (ratio ${(channelOursSeconds / channelRawSeconds).toFixed(2)}); WER ours ${(wer(channelReference, channelOurs.text) * 100).toFixed(1)} %, raw ${(wer(channelReference, channelRaw.text) * 100).toFixed(1)} %`,
);

const one = await pipeline(joined);
const t2 = performance.now();
await Promise.all([pipeline(joined), pipeline(joined)]);
const two = (performance.now() - t2) / 1000;
console.log(`one ${one.audio.toFixed(1)} s recording: ${one.seconds.toFixed(2)} s; two at once: ${two.toFixed(2)} s (ratio ${(two / one.seconds).toFixed(2)}, ${os.availableParallelism()} cores, worker concurrency ${config.workerConcurrency})`);
decoder.close();
await runtime.close();
fs.rmSync(dataDir, { recursive: true, force: true });
