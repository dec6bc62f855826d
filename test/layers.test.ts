// The layer rules of src/ bite: a copy of src/ with imports planted where they are forbidden
// fails `npm run lint:layers`'s check, naming each rule; the real src/ passes it (scripts/test.sh).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..');

function cruise(dir: string): { ok: boolean; output: string } {
  try {
    const output = execFileSync(path.join(root, 'node_modules/.bin/depcruise'), ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

test('an import between features, into a feature from the core, up from the platform, the kernel or the HTTP kit fails the layer check, type-only ones too', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-layers-'));
  try {
    fs.cpSync(path.join(root, 'src'), path.join(dir, 'src'), { recursive: true });
    for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
    const plant = (file: string, line: string) => fs.appendFileSync(path.join(dir, 'src', file), `\n${line}\n`);
    plant('features/analysis/analysis-runs.ts', "import type { TranscriptionRun } from '../transcription/transcription-kind.ts';\nexport type Planted = TranscriptionRun;");
    plant('features/insights/reports.ts', "export { createAnalysisScenario } from '../analysis/analysis-scenarios.ts';");
    plant('core/runs/runs.ts', "import type { Recording } from '../../features/recordings/recording-card.ts';\nexport type PlantedCore = Recording;");
    plant('platform/db/database.ts', "import type { RunRow } from '../../core/runs/run-kind.ts';\nexport type PlantedPlatform = RunRow;");
    plant('errors.ts', "import type { Config } from './config.ts';\nimport type { Pipeline } from './core/pipeline.ts';\nexport type PlantedKernel = Pipeline | Config;");
    plant('http/text-guard.ts', "import type { Context } from '../context.ts';\nexport type PlantedKit = Context;");

    const { ok, output } = cruise(dir);
    assert.equal(ok, false, 'the planted imports fail the check');
    for (const rule of ['no-feature-imports-another', 'core-knows-no-feature', 'platform-at-the-bottom', 'kernel-imports-nothing', 'http-kit-below-core']) assert.match(output, new RegExp(rule), `${rule} is named`);
    assert.doesNotMatch(output, /errors\.ts → src\/config\.ts/, 'the kernel may import the kernel');
    assert.match(output, /features\/analysis\/analysis-runs\.ts → src\/features\/transcription\/transcription-kind\.ts/, 'the type-only import between features is caught');
    assert.match(output, /features\/insights\/reports\.ts → src\/features\/analysis\/analysis-scenarios\.ts/, 'a re-export between features is caught');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
