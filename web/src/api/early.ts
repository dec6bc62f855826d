// The answers the page asked for before its code loaded (the early script in index.html): a GET
// the app makes in the first seconds for the same URL takes the answer under way, once, instead
// of asking again. Later, or for any other request, the app asks the server itself.
declare global {
  interface Window {
    harkEarly?: Record<string, Promise<Response | null>>;
  }
}

/** Early answers are taken only this long after the page opened: as fresh as a route's prefetch. */
const FRESH_MS = 5_000;

/** A URL's path and its query parameters in a fixed order, so the same request matches whatever order it was written in. */
export function requestKey(url: string, origin: string): string {
  const parsed = new URL(url, origin);
  const query = [...parsed.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${parsed.pathname}?${new URLSearchParams(query).toString()}`;
}

/** The answers asked for early, each taken at most once. */
export function earlyAnswers(asked: Record<string, Promise<Response | null>>, origin: string) {
  const answers = new Map(Object.entries(asked).map(([url, answer]) => [requestKey(url, origin), answer]));
  return {
    /** The early answer for a GET of `url` at `now` (ms since the page opened); null when there is none, it is stale, or it was not a success. */
    async take(url: string, now: number): Promise<Response | null> {
      const key = requestKey(url, origin);
      const answer = answers.get(key);
      if (!answer) return null;
      answers.delete(key);
      if (now > FRESH_MS) return null;
      // A refusal or a failure is asked again: what was missing then (a transcript) may be there now.
      const response = await answer.catch(() => null);
      return response?.ok ? response : null;
    },
  };
}

let answers: ReturnType<typeof earlyAnswers> | null = null;

/** fetch for the app's requests: a GET's early answer when there is one, else the server. */
export async function fetchEarlyFirst(input: Request): Promise<Response> {
  // A change (a sign-in or sign-out among them) ends what was asked early: nothing taken after it is from before it.
  if (input.method !== 'GET') answers = earlyAnswers({}, window.location.origin);
  else {
    answers ??= earlyAnswers(window.harkEarly ?? {}, window.location.origin);
    const response = await answers.take(input.url, performance.now());
    if (response) return response;
  }
  return fetch(input);
}
