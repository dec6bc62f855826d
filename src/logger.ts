// The process logger: JSON lines, secrets redacted wherever they could appear.
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'password', '*.password', 'api_key', '*.api_key', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  });
}
