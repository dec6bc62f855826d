// Whether an error means the database cannot be reached now (refused, reset, shut down, out of
// connections), as opposed to a fault in a statement: the client is told to try again later.

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** SQLSTATEs of a server that is going away or refusing sessions (class 08 is matched whole). */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_STATES.has(code) || /^08/.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  // Node reports a refused connection to every address of a host as an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
