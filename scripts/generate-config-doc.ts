// Prints docs/configuration.md from the config schema (src/config.ts): every setting, its default
// and what it does. `scripts/test.sh` fails when the committed file differs.
import { EnvSchema } from '../src/config.ts';

/** Defaults computed on this machine. */
const machineDefaults: Record<string, string> = { HARK_WORKER_CONCURRENCY: 'CPU cores', HARK_WHISPER_THREADS: 'CPU cores' };
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const lines = [
  '# Configuration',
  '',
  'Every setting Hark reads, generated from the config schema (`src/config.ts`) by',
  '`npx tsx scripts/generate-config-doc.ts > docs/configuration.md`; the test command fails when',
  'this file is out of date. Settings are environment variables, also read from a `.env` file in the',
  'working directory (the environment wins; `.env.example` lists them all). A bad value stops the',
  'process at start with a list of what is wrong; a `HARK_*` name Hark does not read is reported with',
  'the nearest known one. More on what they do: [operations.md](operations.md). Back to the',
  '[README](../README.md).',
  '',
  '| setting | default | what it does |',
  '|---|---|---|',
];
for (const [name, schema] of Object.entries(EnvSchema.properties) as [string, { description?: string; default?: unknown; anyOf?: { const: string }[]; minimum?: number; maximum?: number }][]) {
  const fallback = machineDefaults[name] ?? (schema.default === undefined ? '(unset)' : `\`${String(schema.default)}\``);
  const choices = schema.anyOf ? ` One of ${schema.anyOf.map((s) => `\`${s.const}\``).join(', ')}.` : '';
  const bounds = schema.minimum !== undefined && schema.maximum !== undefined ? ` ${schema.minimum} to ${schema.maximum}.` : '';
  lines.push(`| \`${name}\` | ${fallback} | ${cell(schema.description ?? '')}.${choices}${bounds} |`.replace('..', '.'));
}
process.stdout.write(`${lines.join('\n')}\n`);
