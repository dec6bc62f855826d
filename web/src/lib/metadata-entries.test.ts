import { describe, expect, test } from 'vitest';
import { metadataEntries } from './metadata-entries.ts';

describe('metadataEntries', () => {
  test('strings as they are, other values as compact JSON, in the order given', () => {
    expect(metadataEntries({ agent: 'ana', score: 4, vip: true, missing: null, tags: ['a', 'b'], crm: { id: 7 } })).toEqual([
      ['agent', 'ana'],
      ['score', '4'],
      ['vip', 'true'],
      ['missing', 'null'],
      ['tags', '["a","b"]'],
      ['crm', '{"id":7}'],
    ]);
  });
  test('nothing for no metadata', () => {
    expect(metadataEntries({})).toEqual([]);
  });
});
