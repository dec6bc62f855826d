// The process logger: JSON lines, secrets redacted wherever they could appear. Lines are written
// through one buffer per process (a few KB, flushed every second and on exit) rather than one
// write per line: under load, a write per request line cost a fifth of the API's CPU.
import fs from 'node:fs';
import pino, { type DestinationStream, type Logger } from 'pino';

interface Destination extends DestinationStream {
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
  on(event: 'error', listener: () => void): unknown;
}

let stdout: Destination | null = null;
let broken = false;

/**
 * A pipe whose reader is gone (`hark serve | head`) makes sonic-boom's flushSync retry forever,
 * and pino flushes synchronously at exit: so every exit flushes first, asynchronously
 * (`flushLog`), where a closed pipe is an error that pino turns into no more writing, and no
 * synchronous flush of a pipe is added here. Files and terminals are flushed at exit.
 */
const stdoutIsPipe = (() => {
  try {
    return fs.fstatSync(1).isFIFO() || fs.fstatSync(1).isSocket();
  } catch {
    return true;
  }
})();

function bufferedStdout(): DestinationStream {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 }) as unknown as Destination;
    // A closed log pipe loses the log, never the process: writing stops.
    destination.on('error', () => {
      broken = true;
    });
    process.once('exit', () => {
      if (broken || stdoutIsPipe) return;
      try {
        destination.flushSync();
      } catch {
        // the log cannot be written any more
      }
    });
    setInterval(() => {
      if (!broken) destination.flush();
    }, 1000).unref();
    stdout = destination;
  }
  return stdout;
}

/** Writes out what the log holds, within a second whatever the reader does. */
export function flushLog(): Promise<void> {
  const destination = stdout;
  if (!destination || broken) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    try {
      destination.flush((error) => {
        if (error) broken = true;
        clearTimeout(timer);
        resolve();
      });
    } catch {
      broken = true;
      clearTimeout(timer);
      resolve();
    }
  });
}

/**
 * `stderr`: for one-shot commands (`hark admin …`, `hark migrate`), whose standard output is their
 * result: a log line there would end up in what a script reads (`$(hark admin create-key …)`).
 * A stream of the caller's: for a test that reads what is logged.
 */
export function createLogger(level: string, to: 'stdout' | 'stderr' | DestinationStream = 'stdout'): Logger {
  const options = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'password', '*.password', 'api_key', '*.api_key', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  };
  if (level === 'silent') return pino(options);
  if (typeof to !== 'string') return pino(options, to);
  return pino(options, to === 'stderr' ? pino.destination({ dest: 2, sync: true }) : bufferedStdout());
}
