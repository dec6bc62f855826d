import { describe, expect, it } from 'vitest';
import { speakerNotFoundNote } from './answer-notes.ts';

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
