// A bench's `--help`: its usage on stdout and exit 0, before it starts anything.
export function usage(text: string): void {
  if (!process.argv.includes('--help') && !process.argv.includes('-h')) return;
  process.stdout.write(`${text.trim()}\n`);
  process.exit(0);
}
