// Metadata as key/value rows, or as JSON for nested values: both edit the same object.
import { ActionIcon, Button, Group, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

export interface MetadataRow {
  key: string;
  value: string;
}

/** Rows become an object; a value that reads as a number or true/false is kept as one. */
export function rowsToObject(rows: MetadataRow[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const { key, value } of rows) {
    if (!key.trim()) continue;
    const text = value.trim();
    object[key.trim()] = text === 'true' ? true : text === 'false' ? false : text !== '' && !Number.isNaN(Number(text)) ? Number(text) : value;
  }
  return object;
}

export function MetadataEditor({ onChange, suggestions = [] }: { onChange: (value: Record<string, unknown> | null) => void; suggestions?: string[] }) {
  const [mode, setMode] = useState<'rows' | 'json'>('rows');
  const [rows, setRows] = useState<MetadataRow[]>([{ key: '', value: '' }]);
  const [json, setJson] = useState('{}');
  const [jsonError, setJsonError] = useState<string | null>(null);

  const updateRows = (next: MetadataRow[]) => {
    setRows(next);
    onChange(rowsToObject(next));
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
