// A test reporter that prints, once the run ends, each test file's time: from its first event to
// its last as this process saw them, and the sum of its top-level tests' own durations. The
// suite's length is the longest chain of files on the cores, so this is where to look first when
// the run grows.
export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    const entry = files.get(file) ?? { first: now, last: now, tests: 0 };
    entry.last = now;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      entry.tests += event.data.details?.duration_ms ?? 0;
    }
    files.set(file, entry);
  }
  const rows = [...files.entries()].sort((a, b) => b[1].last - b[1].first - (a[1].last - a[1].first));
  yield 'test files by time (seen from first to last event; the sum of their top-level tests):\n';
  for (const [file, { first, last, tests }] of rows) {
    const name = file.replace(/^.*\/test\//, 'test/');
    yield `  ${((last - first) / 1000).toFixed(1).padStart(7)} s  ${(tests / 1000).toFixed(1).padStart(7)} s  ${name}\n`;
  }
}
