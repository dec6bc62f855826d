import { describe, expect, it } from 'vitest';
import { accepts } from './accepts.ts';

describe('accepts', () => {
  const accept = ['audio/*', 'video/mp4', '.flac'];
  it('takes a MIME type family, an exact type and an extension', () => {
    expect(accepts({ name: 'call.wav', type: 'audio/wav' }, accept)).toBe(true);
    expect(accepts({ name: 'call.mp4', type: 'video/mp4' }, accept)).toBe(true);
    expect(accepts({ name: 'CALL.FLAC', type: '' }, accept)).toBe(true);
  });
  it('leaves out anything else', () => {
    expect(accepts({ name: 'notes.txt', type: 'text/plain' }, accept)).toBe(false);
    expect(accepts({ name: 'clip.webm', type: 'video/webm' }, accept)).toBe(false);
  });
});
