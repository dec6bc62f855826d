// A validation error as a person reads it: the field by its name in words ("Email", not
// "email"; "Questions 1 text", not "questions/0/text"), and the schema's phrases in plain English ("must be an e-mail address", not
// 'must match format "email"'). What it does not know is shown as the API wrote it.

const FORMATS: Record<string, string> = {
  email: 'an e-mail address',
  uri: 'a web address (https://…)',
  'date-time': 'a date and time',
  date: 'a date',
};

/** Words of field names written in capitals. */
const ACRONYMS: Record<string, string> = { url: 'URL', id: 'ID', ids: 'IDs' };

/** "questions/0/text" → "Questions 1 text"; "default_retention_days" → "Default retention days"; "body" (the request's whole body) → "The request". */
export function fieldName(path: string): string {
  const parts = path.split('/').filter((part) => part !== '' && part !== 'body' && part !== 'querystring' && part !== 'params');
  if (parts.length === 0) return 'The request';
  const words = parts.map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part.split('_').map((word) => ACRONYMS[word] ?? word).join(' ')));
  const [first, ...rest] = words;
  const head = first!.charAt(0).toUpperCase() + first!.slice(1);
  return rest.length === 0 ? head : `${head} ${rest.join(' ')}`;
}

/** The schema's wording, in plain English where it has a better one. */
export function plainMessage(message: string): string {
  const format = /^must match format "([^"]+)"$/.exec(message);
  if (format) return `must be ${FORMATS[format[1]!] ?? `in the ${format[1]} format`}`;
  const fewer = /^must NOT have fewer than (\d+) characters$/.exec(message);
  if (fewer) return fewer[1] === '1' ? 'must not be empty' : `must be at least ${fewer[1]} characters`;
  const more = /^must NOT have more than (\d+) characters$/.exec(message);
  if (more) return `must be at most ${more[1]} characters`;
  const atLeast = /^must be >= (-?[\d.]+)$/.exec(message);
  if (atLeast) return `must be at least ${atLeast[1]}`;
  const atMost = /^must be <= (-?[\d.]+)$/.exec(message);
  if (atMost) return `must be at most ${atMost[1]}`;
  if (message === 'must have required property') return 'is required';
  const required = /^must have required property '([^']+)'$/.exec(message);
  if (required) return `needs ${required[1]!.replace(/_/g, ' ')}`;
  // A setting's name is for the operator who runs the server, not for the person at the page.
  return message.replace(/an operator may allow (.+?) with HARK_[A-Z_]+=\S+?(?=\)|$)/, 'the operator of this Hark server can allow $1');
}

/** One field's error as a line: "Email: must be an e-mail address". */
export const fieldMessage = (error: { path: string; message: string }): string => `${fieldName(error.path)}: ${plainMessage(error.message)}`;
