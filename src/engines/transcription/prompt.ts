// What an engine that takes a text prompt (whisper.cpp, OpenAI-compatible servers) is given: the
// scenario's prompt, then its vocabulary's terms, which such models then favour when they hear them.
import type { TranscriptionRequest } from './types.ts';

export function promptOf(request: Pick<TranscriptionRequest, 'prompt' | 'vocabulary'>): string | undefined {
  const terms = (request.vocabulary ?? []).map((term) => term.phrase).join(', ');
  const prompt = [request.prompt?.trim(), terms ? `Terms: ${terms}.` : ''].filter(Boolean).join(' ');
  return prompt || undefined;
}
