import { describe, expect, it } from 'vitest';
import { phrasesNotSaidNote, reviewLine, speakerNotFoundNote } from './answer-notes.ts';

describe('speakerNotFoundNote', () => {
  it('asks to transcribe again only where the answers read the latest transcript', () => {
    expect(speakerNotFoundNote('agent', false)).toMatch(/^This transcript names no “agent”.*Transcribe the call again/);
    expect(speakerNotFoundNote('agent', true)).toMatch(/newer transcript: analyse again/);
    expect(speakerNotFoundNote('agent', true)).not.toMatch(/Transcribe the call again/);
  });

  it('on a call of one channel, says naming channels cannot tell its speakers apart, and what can', () => {
    const note = speakerNotFoundNote('agent', false, true);
    expect(note).toMatch(/^This call is one channel with everyone on it/);
    expect(note).toMatch(/stereo/);
    expect(note).not.toMatch(/Transcribe the call again/);
  });
});

describe('phrasesNotSaidNote', () => {
  it('names the phrases a rule looked for, up to five', () => {
    expect(phrasesNotSaidNote(['thank you for calling'])).toBe('Looked for “thank you for calling”: not said.');
    expect(phrasesNotSaidNote(['a', 'b'])).toBe('Looked for “a” and “b”: none was said.');
    expect(phrasesNotSaidNote(['a', 'b', 'c'])).toBe('Looked for “a”, “b” and “c”: none was said.');
    expect(phrasesNotSaidNote(['1', '2', '3', '4', '5', '6', '7'])).toBe('Looked for “1”, “2”, “3”, “4”, “5” and 2 more: none was said.');
  });
});

describe('review lines', () => {
  it('a review given on this answer: agreed, or corrected with what the engine said', () => {
    expect(reviewLine('ana@example.com', { answer: true, agrees: true, carried_from: null }, true)).toBe('ana@example.com agreed with this answer');
    expect(reviewLine('ana@example.com', { answer: true, agrees: false }, false)).toBe('ana@example.com corrected it; the engine said No');
  });

  it('a review taken over from an earlier analysis says so, not that the reviewer agreed with an answer made after it', () => {
    expect(reviewLine('ana@example.com', { answer: true, agrees: true, carried_from: 'anl-1' }, true)).toBe('ana@example.com answered Yes on an earlier analysis of this call; the engine now says the same');
    expect(reviewLine('ana@example.com', { answer: 'a refund', agrees: false, carried_from: 'anl-1' }, '')).toBe('ana@example.com answered “a refund” on an earlier analysis of this call; the engine now says nothing');
  });
});
