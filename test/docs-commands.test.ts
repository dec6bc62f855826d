// Every command the README and docs/ give, run: Hark's own commands for real on a fresh embedded
// store (placeholders such as NAME and WS_ID filled in, in the order the docs give them), the
// long-running ones (`serve`, `worker`) and the benches by their --help, the generators compared
// with the files they write; a command another part of the suite already runs must be found
// there. A command added to the docs without a way to run it here fails this test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const root = path.join(import.meta.dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hark-docs-commands-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const pages = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const commandStart = /^((npx hark|hark|node bin\/hark\.js|npm run|npx tsx|node --import tsx|python3|php|go) |bash scripts\/|npm (start|ci|install|test)\b|node --test\b)/;

/** The commands of one Markdown page: code spans (joined across a line break) and the lines of sh blocks; the operations table's first column is `hark …`. */
function documentedCommands(markdown: string): string[] {
  const text = markdown
    .replace(/^```(?:sh|bash)(?: runnable)?\n([\s\S]*?)^```$/gm, (_block, body: string) => body.split('\n').filter(Boolean).map((line) => `\`${line}\``).join('\n'))
    .replace(/^```[\s\S]*?^```$/gm, '');
  const commands: string[] = [];
  for (const line of text.split('\n')) {
    const table = /^\| `([a-z][^`|]*(?:\\\|[^`]*)?)`(?: \/ `([^`]+)`)? \|/.exec(line);
    if (table && /^(serve|worker|migrate|admin|models|openapi)\b/.test(table[1]!)) commands.push(...[table[1], table[2]].filter((c): c is string => !!c).map((c) => `hark ${c.replace('\\|', '|')}`));
  }
  // Code spans, paired across line breaks: every other piece between backticks.
  const spans = text.replace(/\n/g, ' ').split('`').filter((_, i) => i % 2 === 1);
  for (const span of spans) {
    const command = span.trim().replace(/\s+/g, ' ');
    if (commandStart.test(command) && !command.includes('<command>')) commands.push(command);
  }
  return [...new Set(commands)];
}

function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 180_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Where the suite already runs a command, and the text that shows it there. */
const runElsewhere: [RegExp, string, string][] = [
  [/^bash scripts\/test\.sh$/, '.ci/run', 'bash scripts/test.sh'],
  // The test command sets up as the start command does; `npm start` is the `hark serve` every HTTP test process runs.
  [/^bash scripts\/setup\.sh && npm start$/, 'scripts/test.sh', 'bash scripts/setup.sh'],
  // Set-up alone (operations.md, upgrading): the test command's first step.
  [/^bash scripts\/setup\.sh$/, 'scripts/test.sh', 'bash scripts/setup.sh'],
  [/^npm run build --prefix web$/, 'scripts/setup.sh', 'npm run build'],
  [/^npm run openapi$/, 'scripts/test.sh', 'bin/hark.js openapi'],
  [/^npm run api-types --prefix web$/, 'scripts/test.sh', 'openapi-typescript ../openapi.json'],
  [/^npm run lint:layers$/, 'scripts/test.sh', 'depcruise src --config .dependency-cruiser.cjs'],
  [/^node --import tsx clients\/typescript\/examples\/quickstart\.ts/, 'test/client-typescript.test.ts', 'examples/quickstart.ts'],
  // Named in prose as what set-up and the test command do.
  [/^npm start$/, 'package.json', '"start": "node bin/hark.js serve"'],
  [/^npm ci$/, 'scripts/setup.sh', 'npm ci --no-audit'],
  [/^node --test$/, 'scripts/test.sh', 'node --import tsx --test'],
  [/^npm test --prefix web$/, 'scripts/test.sh', 'npx vitest run'],
  [/^npm install$/, 'test/client-installs.test.ts', 'npm install of the folder'],
  // The other clients' suites and quickstarts, run by the test command and by each suite.
  [/^python3 -m unittest discover -s clients\/python\/tests$/, 'scripts/test.sh', '-m unittest discover -s clients/python/tests'],
  [/^python3 clients\/python\/examples\/quickstart\.py/, 'clients/python/tests/test_client.py', 'def test_quickstart'],
  [/^php clients\/php\/tests\/run\.php$/, 'scripts/test.sh', 'php clients/php/tests/run.php'],
  [/^php clients\/php\/examples\/quickstart\.php/, 'clients/php/tests/run.php', 'clients/php/examples/quickstart.php'],
  [/^go run \.\/examples\/quickstart/, 'clients/go/hark_test.go', '"go", "run", "./examples/quickstart"'],
  [/^go vet \.\/\.\.\. && go test \.\/\.\.\.$/, 'scripts/test.sh', 'go vet ./... && go test ./...'],
];

test('every command in the README and docs/ runs as documented', (t) => {
  const commands = pages.flatMap((page) => documentedCommands(fs.readFileSync(path.join(root, page), 'utf8')).map((command) => ({ page, command })));
  assert.ok(commands.length >= 20, `the docs' commands were found (${commands.length})`);
  const env = { HARK_DATA_DIR: path.join(scratch, 'data'), HARK_EMBEDDED_DB: 'pglite', HARK_LOG_LEVEL: 'silent' };
  const filled: Record<string, string> = { NAME: 'Docs team', N: 'docs-key', 'a,b': 'recordings:read,recordings:write', 'PLAN|none': 'pro', PATH: path.join(scratch, 'no-such-model.bin') };
  let workspace = '';
  const ran: string[] = [];
  for (const { page, command } of commands) {
    const where = `${page}: ${command}`;
    const npmScript = /^npm run ([\w:-]+)(?: --prefix (\w+))?/.exec(command);
    const elsewhere = runElsewhere.find(([pattern]) => pattern.test(command));
    if (elsewhere) {
      assert.ok(fs.readFileSync(path.join(root, elsewhere[1]), 'utf8').includes(elsewhere[2]), `${where}: ${elsewhere[1]} runs it`);
    } else if (/^(npx hark|hark|node bin\/hark\.js) /.test(command)) {
      const args = command
        .replace(/^(npx hark|hark|node bin\/hark\.js) /, '')
        .replace(/ \| .*$/, '')
        .replace(/[[\]]/g, '')
        .split(/\s+/)
        .map((word) => (word === 'WS_ID' ? workspace : (filled[word] ?? word)));
      if (args[0] === 'serve' || args[0] === 'worker' || (args[0] === 'models' && args[1] === 'pull')) {
        // Services that run until stopped (started for real by the HTTP tests), and a download
        // from the public model host (not reachable from here): their usage.
        const help = run(process.execPath, ['bin/hark.js', ...args.slice(0, 2), '--help'], env);
        assert.equal(help.status, 0, `${where}: ${help.stderr}`);
        assert.match(help.stdout, new RegExp(`^usage: hark ${args[0]}`), where);
        if (args[1] === 'pull') assert.match(help.stdout, /^ {2}pull NAME/m, where);
      } else {
        const result = run(process.execPath, ['bin/hark.js', ...args], env);
        if (args[0] === 'models' && args[1] === 'add') {
          // The examples name files this host does not have: the answer names the file in a sentence.
          assert.equal(result.status, 1, where);
          assert.match(result.stderr, new RegExp(`There is no file at ${args[3]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), where);
        } else {
          assert.equal(result.status, 0, `${where}: ${result.stderr}`);
          // What a script reads is the result alone: no log line in it.
          if (args[0] === 'admin') assert.doesNotMatch(result.stdout, /"level":|"msg":/, `${where}: stdout is the result`);
          if (args[0] === 'admin' && args[1] === 'create-workspace') workspace = (JSON.parse(result.stdout) as { workspace_id: string }).workspace_id;
          if (args[0] === 'admin' && args[1] === 'create-key') assert.match(result.stdout, /hark_/, `${where}: the key is printed`);
          if (args[0] === 'openapi') assert.equal((JSON.parse(result.stdout) as { openapi: string }).openapi, '3.1.0', where);
        }
      }
    } else if (command.startsWith('npx tsx bench/')) {
      const file = command.split(/\s+/)[2]!;
      const help = run(process.execPath, ['--import', 'tsx', file, '--help']);
      assert.equal(help.status, 0, `${where}: ${help.stderr}`);
      assert.match(help.stdout, new RegExp(`^Usage: npx tsx ${file}`), where);
    } else if (command.startsWith('npx tsx scripts/')) {
      const [script, target] = command.replace(/^npx tsx /, '').split(/\s*>\s*/);
      if (script === 'scripts/generate-clients.ts') {
        const check = run(process.execPath, ['--import', 'tsx', script, '--check']);
        assert.equal(check.status, 0, `${where}: ${check.stderr}`);
      } else {
        const output = run(process.execPath, ['--import', 'tsx', script!]);
        assert.equal(output.status, 0, `${where}: ${output.stderr}`);
        const file = target ?? (script === 'scripts/generate-env-example.ts' ? '.env.example' : '');
        assert.ok(file, `${where}: the file it writes is known`);
        assert.equal(output.stdout, fs.readFileSync(path.join(root, file), 'utf8'), `${where}: ${file} is what it prints`);
      }
    } else if (npmScript) {
      const manifest = JSON.parse(fs.readFileSync(path.join(root, npmScript[2] ?? '', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      assert.ok(manifest.scripts[npmScript[1]!], `${where}: no such npm script`);
    } else {
      assert.fail(`${where}: no way to run this command here`);
    }
    ran.push(command);
  }
  assert.ok(ran.some((c) => c.includes('admin set-plan')) && workspace, 'the admin commands ran in their documented order');
  // Each command, done, removed its scratch folder: none is left for the next to clear.
  const scratchFolders = path.join(env.HARK_DATA_DIR, 'blobs', '.tmp');
  assert.deepEqual(fs.existsSync(scratchFolders) ? fs.readdirSync(scratchFolders) : [], [], 'no scratch folder left behind');
  t.diagnostic(`${ran.length} commands run: ${ran.join(' · ')}`);
});
