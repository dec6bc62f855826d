// A test reporter that prints, once the run ends, the test files that took longest: the sum of
// each file's top-level tests' own durations (the runner hands a file's events on in bursts, so
// the time they arrive says nothing of when the file ran). The suite's length is the longest
// chain of files on the cores, so this is where to look first when the run grows.
export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue;
    files.set(event.data.file, (files.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
  }
  const rows = [...files.entries()].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
  yield `test files by the time of their tests (${(total / 1000).toFixed(0)} s in all, on the cores together); the longest:\n`;
  for (const [file, ms] of rows.slice(0, 20)) yield `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file.replace(/^.*\/test\//, 'test/')}\n`;
}
