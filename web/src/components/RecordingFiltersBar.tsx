// Filters of recordings: status, creation dates, a call category, a topic (words of a key phrase), sentiment and
// metadata fields (names and values suggested from the workspace's own recordings).
import '@mantine/dates/styles.css';
import { Autocomplete, Button, CloseButton, Group, Pill, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import type { Schemas } from '../api/client.ts';
import { useCategories } from '../api/queries.ts';
import { useWorkspace } from './WorkspaceLayout.tsx';
import { activeFilterCount, emptyFilters, type RecordingFilters, type Sentiment } from '../lib/filters.ts';
import { recordingStatusLabels, type RecordingStatus } from '../lib/recording-status.ts';
import { pipelineLabels } from './Status.tsx';

/** A status is where a call stands now: an analysed call has its transcript, but is no longer "Transcribed". */
const FILTER_LABELS: Record<string, string> = { transcribed: 'Transcribed only', audio_ready: 'Audio ready only' };

const toDate = (value: string | null) => (value ? dayjs(value).toDate() : null);

/**
 * `onTyping`: told whether a metadata filter is typed but not yet added (a dialog acting on the
 * filters waits for it). `otherFilters` and `onClear`: a page's own filters beside these (the
 * answers' "greeting: no"), which "Clear filters" clears too.
 */
export function RecordingFiltersBar({ filters, fields, onChange, onTyping, otherFilters = 0, onClear }: { filters: RecordingFilters; fields: Schemas['MetadataField'][]; onChange: (next: RecordingFilters) => void; onTyping?: (typing: boolean) => void; otherFilters?: number; onClear?: () => void }) {
  const categories = useCategories(useWorkspace().id);
  const [field, setField] = useState('');
  const [value, setValue] = useState('');
  const values = fields.find((f) => f.field === field)?.values.map((v) => String(v.value)) ?? [];
  const typing = field.trim() !== '' || value !== '';
  useEffect(() => onTyping?.(typing), [typing, onTyping]);
  const addMetadata = () => {
    if (!field.trim() || value === '') return;
    // A field filtered again by another value matches either ("agent = ana or ben").
    const name = field.trim();
    const values = filters.metadata[name] ?? [];
    onChange({ ...filters, metadata: { ...filters.metadata, [name]: values.includes(value) ? values : [...values, value] } });
    setField('');
    setValue('');
  };
  return (
    <Stack gap="xs">
      <Group align="end" gap="sm">
        <Select
          label="Status"
          placeholder="Any"
          data={Object.entries(pipelineLabels).map(([value, { label }]) => ({ value, label: FILTER_LABELS[value] ?? label }))}
          value={filters.stage}
          onChange={(stage) => onChange({ ...filters, stage })}
          clearable
          w={170}
        />
        <DatePickerInput
          label="Call date from"
          placeholder="Any day"
          value={toDate(filters.recordedAfter)}
          onChange={(date) => onChange({ ...filters, recordedAfter: date ? dayjs(date).startOf('day').toISOString() : null })}
          clearable
          w={160}
        />
        <DatePickerInput
          label="Call date until"
          placeholder="Any day"
          value={toDate(filters.recordedBefore)}
          onChange={(date) => onChange({ ...filters, recordedBefore: date ? dayjs(date).endOf('day').toISOString() : null })}
          clearable
          w={160}
        />
        {(categories.data?.data.length ?? 0) > 0 && (
          <Select
            label="Category"
            placeholder="Any"
            data={(categories.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={filters.category}
            onChange={(category) => onChange({ ...filters, category })}
            clearable
            // Wide enough for a name of two words; a longer one whole on hover.
            w={210}
            title={(categories.data?.data ?? []).find((c) => c.id === filters.category)?.name}
            comboboxProps={{ width: 'max-content' }}
          />
        )}
        <TopicInput value={filters.topic} onChange={(topic) => onChange({ ...filters, topic })} />
        <Select
          label="Sentiment"
          placeholder="Any"
          data={[
            { value: 'negative', label: 'Negative (a speaker below −0.05)' },
            { value: 'positive', label: 'Positive (a speaker above +0.20)' },
          ]}
          value={filters.sentiment}
          onChange={(sentiment) => onChange({ ...filters, sentiment: sentiment as Sentiment | null })}
          clearable
          w={170}
          comboboxProps={{ width: 260 }}
        />
        {/* The field, its value and the button move to the next line together (a lone "equals" read as a filter of its own). */}
        <Group align="end" gap="sm" data-metadata-filter>
          <Autocomplete label="Metadata field" placeholder="e.g. agent" data={fields.map((f) => f.field)} value={field} onChange={setField} w={160} />
          <Autocomplete
            label="equals"
            placeholder="value"
            data={values}
            value={value}
            onChange={setValue}
            w={160}
            onKeyDown={(e) => {
              if (e.key === 'Enter') addMetadata();
            }}
          />
          <Button variant="default" onClick={addMetadata} disabled={!field.trim() || value === ''}>
            Add filter
          </Button>
        </Group>
        {(activeFilterCount(filters) > 0 || otherFilters > 0 || typing) && (
          <Button
            variant="subtle"
            onClick={() => {
              setField('');
              setValue('');
              if (onClear) onClear();
              else onChange(emptyFilters);
            }}
          >
            Clear filters
          </Button>
        )}
      </Group>
      {field.trim() !== '' && value !== '' && (
        <Text size="sm" c="#9a3412" data-filter-not-added>
          Not applied yet: “Add filter” (or Enter) filters the list to {field.trim()} = {value}.
        </Text>
      )}
      {filters.status && (
        <Group gap="xs">
          <Pill size="md">
            <Group gap={4} wrap="nowrap">
              Audio: {recordingStatusLabels[filters.status as RecordingStatus] ?? filters.status}
              <CloseButton size="xs" aria-label="Remove the filter on the audio's status" onClick={() => onChange({ ...filters, status: null })} />
            </Group>
          </Pill>
        </Group>
      )}
      {Object.keys(filters.metadata).length > 0 && (
        <Group gap="xs" aria-label="Metadata filters">
          {Object.entries(filters.metadata).flatMap(([name, values]) =>
            values.map((v, i) => (
              <Pill key={JSON.stringify([name, v])} size="md">
                <Group gap={4} wrap="nowrap">
                  {i > 0 ? 'or ' : ''}
                  {name} = {v}
                  <CloseButton
                    size="xs"
                    aria-label={values.length === 1 ? `Remove the filter on ${name}` : `Remove the filter ${name} = ${v}`}
                    onClick={() => {
                      const metadata = { ...filters.metadata };
                      const rest = values.filter((other) => other !== v);
                      if (rest.length > 0) metadata[name] = rest;
                      else delete metadata[name];
                      onChange({ ...filters, metadata });
                    }}
                  />
                </Group>
              </Pill>
            )),
          )}
        </Group>
      )}
    </Stack>
  );
}

/** The topic, applied on Enter or when the field is left (not on every key). */
function TopicInput({ value, onChange }: { value: string | null; onChange: (topic: string | null) => void }) {
  const [draft, setDraft] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(value ?? '');
  }
  const apply = () => {
    const topic = draft.trim() || null;
    if (topic !== value) onChange(topic);
  };
  return (
    <TextInput
      label="Topic"
      placeholder="e.g. refund"
      value={draft}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(e) => {
        if (e.key === 'Enter') apply();
      }}
      w={150}
    />
  );
}
