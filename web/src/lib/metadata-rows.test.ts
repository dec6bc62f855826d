import { describe, expect, it } from 'vitest';
import { rowsToObject } from './metadata-rows.ts';

describe('rowsToObject', () => {
  it('reads numbers and true/false as such, and skips rows without a field', () => {
    expect(rowsToObject([{ key: 'n', value: '42' }, { key: 'ok', value: 'true' }, { key: 'agent', value: 'ana' }, { key: ' ', value: 'x' }])).toEqual({ n: 42, ok: true, agent: 'ana' });
  });
  it('keeps the type of a value left as it was given: the text "007" stays text', () => {
    const original = { id: '007', n: 3, agent: 'bob' };
    expect(rowsToObject([{ key: 'id', value: '007' }, { key: 'n', value: '3' }, { key: 'agent', value: 'Bob' }], original)).toEqual({ id: '007', n: 3, agent: 'Bob' });
    expect(rowsToObject([{ key: 'id', value: '008' }], original)).toEqual({ id: 8 });
  });
});
