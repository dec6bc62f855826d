// Prints .env.example from the config schema (src/config.ts): every setting, its description,
// and its default (commented out where it has none, or where it depends on the machine).
// `scripts/test.sh` fails when the committed file differs.
import { EnvSchema } from '../src/config.ts';

/** Defaults computed on this machine: written as a comment, not a value. */
const machineDefaults = new Set(['HARK_WORKER_CONCURRENCY', 'HARK_WHISPER_THREADS']);

const lines = [
  '# Every setting Hark reads, with its default (generated from src/config.ts by',
  '# scripts/generate-env-example.ts). Copy to .env in the working directory, or set them in the',
  '# environment, which wins over .env. Unknown HARK_* names are reported at start.',
  '',
];
for (const [name, schema] of Object.entries(EnvSchema.properties) as [string, { description?: string; default?: unknown; anyOf?: { const: string }[] }][]) {
  const choices = schema.anyOf ? ` (${schema.anyOf.map((s) => s.const).join('|')})` : '';
  lines.push(`# ${schema.description ?? name}${choices}`);
  const fallback = schema.default;
  if (fallback === undefined) lines.push(`# ${name}=`);
  else if (machineDefaults.has(name)) lines.push(`# ${name}=   (default: this machine's CPU cores)`);
  else lines.push(`${name}=${String(fallback)}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
