// Progress of long commands on stderr: on a terminal one line rewritten in place, elsewhere (a
// log file, a CI job) one line per step, so nothing is lost and no control codes are written.
import { Transform } from 'node:stream';

const terminal = () => process.stderr.isTTY === true;

/** Shows `text` as the current step; `last` ends the line. */
export function progressLine(text: string, last = false): void {
  if (terminal()) process.stderr.write(`\r\x1b[2K${text}${last ? '\n' : ''}`);
  else process.stderr.write(`${text}\n`);
}

/** `[#####.....] 42.0% 12.3 MB`: a bar for `done` bytes of `total` (0 when unknown). */
export function progressBarText(done: number, total: number, width = 30): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(1)}% ${(done / 1e6).toFixed(1)} MB`;
}

/** A pass-through stream that shows the bytes through it as a bar, at most five times a second (every 10% off a terminal). */
export function byteProgress(total: number): Transform {
  let done = 0;
  let shownAt = 0;
  let shownTenth = -1;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      done += chunk.length;
      const tenth = total > 0 ? Math.floor((done / total) * 10) : Math.floor(done / 1e8);
      const due = terminal() ? Date.now() - shownAt > 200 : tenth !== shownTenth;
      if (due) {
        shownAt = Date.now();
        shownTenth = tenth;
        progressLine(progressBarText(done, total));
      }
      callback(null, chunk);
    },
    flush(callback) {
      progressLine(progressBarText(done, total || done), true);
      callback();
    },
  });
}
