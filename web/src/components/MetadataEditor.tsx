// Metadata as key/value rows, or as JSON for nested values: both edit the same object.
import { ActionIcon, Button, Group, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { rowsToObject, type MetadataRow } from '../lib/metadata-rows.ts';

/** Metadata that rows can show: every value text, a number or true/false (else it is edited as JSON). */
const flat = (value: Record<string, unknown>) => Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');

export function MetadataEditor({ onChange, suggestions = [], initial = {} }: { onChange: (value: Record<string, unknown> | null) => void; suggestions?: string[]; initial?: Record<string, unknown> }) {
  const given = Object.keys(initial).length > 0;
  const [mode, setMode] = useState<'rows' | 'json'>(flat(initial) ? 'rows' : 'json');
  const [rows, setRows] = useState<MetadataRow[]>(given && flat(initial) ? Object.entries(initial).map(([key, value]) => ({ key, value: String(value) })) : [{ key: '', value: '' }]);
  const [json, setJson] = useState(given ? JSON.stringify(initial, null, 2) : '{}');
  const [jsonError, setJsonError] = useState<string | null>(null);

  const updateRows = (next: MetadataRow[]) => {
    setRows(next);
    onChange(rowsToObject(next, initial));
  };
  const updateJson = (text: string) => {
    setJson(text);
    try {
      const value: unknown = JSON.parse(text || '{}');
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
      setJsonError(null);
      onChange(value as Record<string, unknown>);
    } catch {
      setJsonError('Write a JSON object, for example {"agent": "ana"}');
      onChange(null);
    }
  };

  return (
    <Stack gap="xs">
      <SegmentedControl
        size="xs"
        w="fit-content"
        aria-label="Metadata format"
        value={mode}
        onChange={(value) => setMode(value as 'rows' | 'json')}
        data={[
          { value: 'rows', label: 'Fields' },
          { value: 'json', label: 'JSON' },
        ]}
      />
      {mode === 'rows' ? (
        <Stack gap={6}>
          {rows.map((row, index) => (
            <Group key={index} gap={6} wrap="nowrap">
              <TextInput
                aria-label={`Metadata field ${index + 1}`}
                placeholder={suggestions[index] ?? 'field, e.g. agent'}
                value={row.key}
                onChange={(e) => updateRows(rows.map((r, i) => (i === index ? { ...r, key: e.currentTarget.value } : r)))}
                flex={1}
              />
              <TextInput
                aria-label={`Metadata value ${index + 1}`}
                placeholder="value"
                value={row.value}
                onChange={(e) => updateRows(rows.map((r, i) => (i === index ? { ...r, value: e.currentTarget.value } : r)))}
                flex={1}
              />
              <ActionIcon variant="subtle" color="gray" aria-label={`Remove metadata field ${index + 1}`} onClick={() => updateRows(rows.filter((_, i) => i !== index))}>
                ×
              </ActionIcon>
            </Group>
          ))}
          <Button variant="subtle" size="xs" w="fit-content" onClick={() => setRows([...rows, { key: '', value: '' }])}>
            Add a field
          </Button>
        </Stack>
      ) : (
        <Textarea aria-label="Metadata as JSON" autosize minRows={3} value={json} error={jsonError} onChange={(e) => updateJson(e.currentTarget.value)} ff="monospace" />
      )}
    </Stack>
  );
}
