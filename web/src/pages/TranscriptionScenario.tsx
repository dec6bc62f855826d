// A transcription scenario: engine, model and language from what this server has, options
// (speakers per channel, redaction), retry settings and the automatic toggle.
import { Anchor, Button, Group, NumberInput, Select, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import { api, ok, type Schemas } from '../api/client.ts';
import { keys, queries, useEngines } from '../api/queries.ts';
import { CallOptionsEditor } from '../components/CallOptionsEditor.tsx';
import { ProblemAlert } from '../components/Problem.tsx';
import { RunOnRecordings } from '../components/RunOnRecordings.tsx';
import { LeaveUnsaved } from '../components/scenario/LeaveUnsaved.tsx';
import { useScenarioEditor } from '../components/scenario/use-scenario-editor.ts';
import { ChangedElsewhere } from '../components/scenario/ChangedElsewhere.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { can } from '../session.tsx';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { SpeakersNamedNotice } from '../components/scenario/SpeakersNamedNotice.tsx';
import { useState } from 'react';
import { transcriptChanges } from '../lib/transcript-changes.ts';
import { usePageTitle } from '../components/PageTitle.ts';

type Scenario = Schemas['TranscriptionScenario'];

export default function TranscriptionScenario() {
  const workspace = useWorkspace();
  const { scenarioId = '' } = useParams();
  const path = { workspace_id: workspace.id, scenario_id: scenarioId };
  const engines = useEngines(workspace.id);
  const [running, { open: openRun, close: closeRun }] = useDisclosure(false);
  const writer = can.write(workspace.role);
  // Saved with other channel names, or another way to transcribe (vocabulary, phrases to find…):
  // calls transcribed before keep what they had (a notice offers to transcribe them again).
  const [changed, setChanged] = useState<{ renamed: boolean; others: string[]; save: number } | null>(null);
  const { scenario, draft, set, save, remove, stale, reload, overwrite, blocker } = useScenarioEditor({
    workspaceId: workspace.id,
    query: queries.transcriptionScenario(workspace.id, scenarioId),
    listKey: keys.transcriptionScenarios(workspace.id),
    patch: (value) =>
      ok(
        api.PATCH('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}', {
          params: { path },
          body: { version: value.version, name: value.name, engine: value.engine, model: value.model, language: value.language, options: {
            word_timestamps: value.options.word_timestamps,
            summary: value.options.summary,
            format: value.options.format,
            channels: value.options.channels,
            speaker_labels: value.options.speaker_labels,
            speaker_labels_field: value.options.speaker_labels_field,
            redact: value.options.redact,
            redact_audio: value.options.redact_audio,
            keep_original_audio: value.options.keep_original_audio,
            vocabulary: value.options.vocabulary ?? [],
            spot: value.options.spot ?? [],
            chapters: value.options.chapters ?? true,
          }, auto: value.auto, retry: value.retry },
        }),
      ),
    remove: () => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/transcription-scenarios/{scenario_id}', { params: { path } })),
  });
  usePageTitle(scenario.data?.name, workspace.name);

  if (scenario.error) return <ProblemAlert error={scenario.error} />;
  // The form appears with the engines' catalog, which says which fields the chosen engine takes (a field must not appear later under the reader's hand).
  if (!draft || engines.isPending) return <Text c="dimmed">Loading…</Text>;
  const available = engines.data?.data.filter((e) => e.kind === 'transcription') ?? [];
  const engine = available.find((e) => e.engine === draft.engine);
  // Whether the chosen engine spots phrases in the audio, as the server's catalog says.
  const spots = engine?.spots ?? false;
  const models = engine ? [...new Set([...engine.models, draft.model])] : [draft.model];
  const languages = engine?.languages ?? null;

  return (
    <Stack maw={800}>
      <Anchor component={Link} to={`/w/${workspace.id}/scenarios`} size="sm">
        ← Scenarios
      </Anchor>
      <LeaveUnsaved blocker={blocker} />
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {scenario.data?.name}
        </Title>
        {writer && (
          <Group gap="xs">
            <Button variant="light" onClick={openRun}>
              Run on recordings…
            </Button>
            <ConfirmButton title={`Delete “${scenario.data?.name ?? ''}”?`} consequence="The scenario stops running (also automatically); its transcripts stay." confirm="Delete" onConfirm={() => remove.mutate()} loading={remove.isPending}>
              Delete
            </ConfirmButton>
          </Group>
        )}
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const names = (options?: Scenario['options']) => JSON.stringify([options?.speaker_labels ?? {}, options?.speaker_labels_field ?? null]);
          const renamed = names(scenario.data?.options) !== names(draft.options);
          const others = transcriptChanges(scenario.data, draft);
          // Each save its own notice (a new offer, scrolled to), even where it changes what the last one did.
          save.mutate({ onSuccess: () => (renamed || others.length > 0) && setChanged({ renamed, others, save: (changed?.save ?? 0) + 1 }) });
        }}
      >
        <fieldset disabled={!writer} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack>
            {stale && <ChangedElsewhere onReload={reload} onOverwrite={overwrite} saving={save.isPending} />}
            <ProblemAlert error={save.error ?? remove.error} title="Not saved" />
            <TextInput label="Name" required value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} />
            <Group grow align="start">
              <Select
                label="Engine"
                allowDeselect={false}
                data={available.map((e) => e.engine)}
                value={draft.engine}
                onChange={(value) => {
                  const next = available.find((e) => e.engine === value);
                  // An engine that does not spot phrases in the audio drops them.
                  if (next) set({ engine: next.engine as Scenario['engine'], model: next.default_model, language: next.languages?.[0] ?? 'auto', ...(next.spots ? {} : { options: { ...draft.options, spot: [] } }) });
                }}
              />
              <Select
                label="Model"
                description={engine && engine.models.length === 0 ? 'No model file registered (hark models add)' : undefined}
                data={models}
                value={draft.model}
                searchable={engine?.any_model}
                allowDeselect={false}
                onChange={(model) => model && set({ model })}
              />
              {languages ? (
                <Select label="Language" data={languages} value={draft.language} allowDeselect={false} onChange={(language) => language && set({ language })} />
              ) : (
                <TextInput label="Language" description='"auto" or a code such as "en"' value={draft.language} onChange={(e) => set({ language: e.currentTarget.value })} />
              )}
            </Group>
            <Switch label="Word timings" checked={draft.options.word_timestamps} onChange={(e) => set({ options: { ...draft.options, word_timestamps: e.currentTarget.checked } })} />
            <Switch label="Add a summary to each transcript" checked={draft.options.summary} onChange={(e) => set({ options: { ...draft.options, summary: e.currentTarget.checked } })} />
            <Switch label="Readable text: sentences, capitals and punctuation" description="Off keeps the words exactly as recognised" checked={draft.options.format ?? true} onChange={(e) => set({ options: { ...draft.options, format: e.currentTarget.checked } })} />
            <Switch label="Chapters where the subject changes" description="Off keeps each call as one chapter" checked={draft.options.chapters ?? true} onChange={(e) => set({ options: { ...draft.options, chapters: e.currentTarget.checked } })} />
            <TagsInput
              label="Vocabulary"
              description="Product names and jargon the engine is to expect, written as you spell them (up to 200; Enter after each)"
              placeholder="e.g. Zendesk"
              maxTags={200}
              value={(draft.options.vocabulary ?? []).map((term) => (typeof term === 'string' ? term : term.phrase))}
              onChange={(phrases) => {
                // A term saved with how it sounds keeps it while its phrase stays.
                const known = new Map((draft.options.vocabulary ?? []).map((term) => [typeof term === 'string' ? term : term.phrase, term]));
                set({ options: { ...draft.options, vocabulary: phrases.map((phrase) => known.get(phrase) ?? phrase) } });
              }}
              data-section="vocabulary"
            />
            {spots && (
              <TagsInput
                label="Phrases to find in the audio"
                description="Searched for in the sound itself, whatever the transcript makes of them (e.g. the recording notice); phrase rules answer from them (up to 50)"
                placeholder="e.g. this call may be recorded"
                maxTags={50}
                value={draft.options.spot ?? []}
                onChange={(spot) => set({ options: { ...draft.options, spot } })}
              />
            )}
            <CallOptionsEditor options={draft.options} onChange={(options) => set({ options })} />
            <Group>
              <NumberInput label="Attempts on a passing failure" min={1} max={10} value={draft.retry.max_attempts} onChange={(v) => set({ retry: { ...draft.retry, max_attempts: Number(v) || 1 } })} w={220} />
              <NumberInput label="First wait (seconds)" min={0} max={3600} value={draft.retry.backoff_seconds} onChange={(v) => set({ retry: { ...draft.retry, backoff_seconds: Number(v) || 0 } })} w={220} />
            </Group>
            <Switch label="Automatic: transcribe every new recording with this scenario" checked={draft.auto} onChange={(e) => set({ auto: e.currentTarget.checked })} />
            {writer && (
              <Button type="submit" w="fit-content" loading={save.isPending} disabled={stale}>
                Save
              </Button>
            )}
            {/* Beside Save, where the reader is when it appears (at the top it went unseen). */}
            {changed && <SpeakersNamedNotice key={changed.save} workspaceId={workspace.id} transcriptionScenarioId={scenarioId} byHand renamed={changed.renamed} otherChanges={changed.others} />}
          </Stack>
        </fieldset>
      </form>
      <RunOnRecordings workspaceId={workspace.id} kind="transcription" scenarioId={scenarioId} opened={running} onClose={closeRun} />
    </Stack>
  );
}
