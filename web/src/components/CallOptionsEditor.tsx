// The options of a transcription scenario a call centre sets: how channels are read, who speaks on
// each, the metadata field that names them per call, readable text, and what personal data is
// redacted from the transcript and the audio.
import { Button, Checkbox, Fieldset, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { Schemas } from '../api/client.ts';

type Options = Schemas['TranscriptionScenario']['options'];

const redactionLabels: Record<NonNullable<Options['redact']>[number], string> = {
  credit_card: 'Card numbers',
  phone_number: 'Phone numbers',
  email: 'Email addresses',
  us_ssn: 'US social security numbers',
  number_sequence: 'Any long number',
};

export function CallOptionsEditor({ options, onChange }: { options: Options; onChange: (next: Options) => void }) {
  const set = (patch: Partial<Options>) => onChange({ ...options, ...patch });
  const labels = options.speaker_labels ?? {};
  const channelCount = Math.max(2, ...Object.keys(labels).map((c) => Number(c) + 1));
  const setLabel = (channel: number, label: string) => {
    const next = { ...labels };
    if (label.trim()) next[String(channel)] = label.trim();
    else delete next[String(channel)];
    set({ speaker_labels: next });
  };
  const redact = options.redact ?? [];
  return (
    <>
      <Fieldset legend="Speakers" data-section="speakers">
        <Stack gap="xs">
          <Select
            label="Channels"
            w={320}
            maw="100%"
            allowDeselect={false}
            data={[
              { value: 'auto', label: 'Automatic (each channel apart when 2 to 8)' },
              { value: 'separate', label: 'Each channel apart (one speaker each)' },
              { value: 'mix', label: 'Mixed to one' },
            ]}
            value={options.channels ?? 'auto'}
            onChange={(channels) => channels && set({ channels: channels as Options['channels'] })}
          />
          <Group gap="xs" align="end">
            {Array.from({ length: channelCount }, (_, channel) => (
              <TextInput key={channel} label={`Speaker of channel_${channel}${[' (left)', ' (right)'][channel] ?? ''}`} placeholder={['e.g. agent', 'e.g. customer'][channel] ?? ''} w={200} maw="100%" value={labels[String(channel)] ?? ''} onChange={(e) => setLabel(channel, e.currentTarget.value)} />
            ))}
            {channelCount < 8 && (
              <Button variant="subtle" size="xs" onClick={() => setLabel(channelCount, `speaker_${channelCount + 1}`)}>
                Add a channel
              </Button>
            )}
          </Group>
          <TextInput
            label="Metadata field naming the speakers of a call"
            description='Overrides the labels for a recording whose metadata has it, e.g. "speakers": ["customer", "agent"]'
            placeholder="none"
            w={420}
            maw="100%"
            value={options.speaker_labels_field ?? ''}
            onChange={(e) => set({ speaker_labels_field: e.currentTarget.value.trim() || null })}
          />
        </Stack>
      </Fieldset>
      <Fieldset legend="Personal data" data-section="redaction">
        <Stack gap="xs">
          <Checkbox.Group label="Redact from the stored transcript" description="Replaced by a tag such as [CREDIT_CARD], spoken or in digits; search and analysis never see them" value={redact} onChange={(kinds) => set({ redact: kinds as Options['redact'], ...(kinds.length === 0 ? { redact_audio: false, keep_original_audio: true } : {}) })}>
            <Group gap="md" mt={6}>
              {Object.entries(redactionLabels).map(([kind, label]) => (
                <Checkbox key={kind} value={kind} label={label} />
              ))}
            </Group>
          </Checkbox.Group>
          <Switch label="Also silence them in the audio" description="Playback and downloads serve a copy with the redacted words silenced" disabled={redact.length === 0} checked={options.redact_audio ?? false} onChange={(e) => set({ redact_audio: e.currentTarget.checked, ...(e.currentTarget.checked ? {} : { keep_original_audio: true }) })} />
          {options.redact_audio && (
            <Switch label="Delete the original audio once the silenced copy exists" checked={options.keep_original_audio === false} onChange={(e) => set({ keep_original_audio: !e.currentTarget.checked })} />
          )}
          {redact.length === 0 && (
            <Text size="xs" c="orange">
              Nothing is redacted: a card number read out on a call is stored and searchable in clear.
            </Text>
          )}
        </Stack>
      </Fieldset>
    </>
  );
}
