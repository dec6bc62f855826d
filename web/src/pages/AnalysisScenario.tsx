// An analysis scenario: its questions (add, remove, reorder; key, text, type boolean or text,
// speaker, time window and phrases),
// instructions, engine and model from what this server has, summary and automatic toggles.
import { Alert, Anchor, Button, Group, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useLocation, useParams } from 'react-router';
import { api, ok, type Schemas } from '../api/client.ts';
import { keys, queries, useEngines, useTranscriptionScenarios } from '../api/queries.ts';
import { ProblemAlert } from '../components/Problem.tsx';
import { QuestionEditor, type Question } from '../components/QuestionEditor.tsx';
import { RunOnRecordings } from '../components/RunOnRecordings.tsx';
import { LeaveUnsaved } from '../components/scenario/LeaveUnsaved.tsx';
import { useScenarioEditor } from '../components/scenario/use-scenario-editor.ts';
import { ChangedElsewhere } from '../components/scenario/ChangedElsewhere.tsx';
import { SpeakersMissingNotice } from '../components/scenario/SpeakersMissingNotice.tsx';
import { SpeakersNamedNotice } from '../components/scenario/SpeakersNamedNotice.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { can } from '../session.tsx';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { isMadeKey, questionKey } from '../lib/question-key.ts';
import { usePageTitle } from '../components/PageTitle.ts';

type Scenario = Schemas['AnalysisScenario'];

export default function AnalysisScenario() {
  const workspace = useWorkspace();
  const { scenarioId = '' } = useParams();
  const path = { workspace_id: workspace.id, scenario_id: scenarioId };
  const engines = useEngines(workspace.id);
  const transcriptionScenarios = useTranscriptionScenarios(workspace.id);
  const [running, { open: openRun, close: closeRun }] = useDisclosure(false);
  const writer = can.write(workspace.role);
  // Set by "Add Call QA": whether it was just added, and where it named the transcription scenario's speakers.
  const state = useLocation().state as { speakersNamedIn?: string | null; added?: boolean } | null;
  const speakersNamedIn = state?.speakersNamedIn ?? null;
  const { scenario, draft, set, save, remove, stale, reload, overwrite, blocker } = useScenarioEditor({
    workspaceId: workspace.id,
    query: queries.analysisScenario(workspace.id, scenarioId),
    listKey: keys.analysisScenarios(workspace.id),
    patch: (value) =>
      ok(
        api.PATCH('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}', {
          params: { path },
          body: { version: value.version, name: value.name, instructions: value.instructions, questions: value.questions, engine: value.engine, model: value.model, summary: value.summary, auto: value.auto },
        }),
      ),
    remove: () => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/analysis-scenarios/{scenario_id}', { params: { path } })),
  });
  usePageTitle(scenario.data?.name, workspace.name);

  if (scenario.error) return <ProblemAlert error={scenario.error} />;
  if (!draft) return <Text c="dimmed">Loading…</Text>;
  const questions: Question[] = draft.questions;
  const speakers = [...new Set(['agent', 'customer', ...(transcriptionScenarios.data?.data ?? []).flatMap((t) => Object.values(t.options.speaker_labels ?? {}))])];
  // The names channels are given, where every scenario says them (one naming speakers from metadata could name any).
  const scenariosNow = transcriptionScenarios.data?.data ?? [];
  const namedSpeakers = scenariosNow.some((t) => t.options.speaker_labels_field) ? null : [...new Set(scenariosNow.flatMap((t) => Object.values(t.options.speaker_labels ?? {})))];
  const setQuestions = (next: Question[]) => set({ questions: next });
  // The speaker the saved questions ask about first, if any (the agent, the customer).
  const askedSpeaker = scenario.data?.questions.find((q) => q.speaker)?.speaker ?? null;
  const move = (index: number, by: number) => {
    const next = [...questions];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    setQuestions(next);
  };
  // A new question's key follows its words (agent_offer_refund, not q5) until it is saved or typed by hand.
  const saved = new Set(scenario.data?.questions.map((q) => q.id) ?? []);
  const withKey = (before: Question, next: Question, index: number): Question => {
    const others = questions.filter((_, i) => i !== index).map((x) => x.id);
    const follows = next.text !== before.text && next.id === before.id && !saved.has(before.id) && isMadeKey(before.id, before.text, others);
    return follows ? { ...next, id: questionKey(next.text, others) } : next;
  };
  const nextKey = () => {
    let n = questions.length + 1;
    while (questions.some((q) => q.id === `q${n}`)) n += 1;
    return `q${n}`;
  };
  const available = engines.data?.data.filter((e) => e.kind === 'analysis') ?? [];
  const engine = available.find((e) => e.engine === draft.engine);
  const models = engine ? [...new Set([...engine.models, draft.model])] : [draft.model];

  return (
    <Stack maw={900}>
      <Anchor component={Link} to={`/w/${workspace.id}/scenarios`} size="sm">
        ← Scenarios
      </Anchor>
      <LeaveUnsaved blocker={blocker} />
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {scenario.data?.name}
        </Title>
        <Group gap="xs">
          <Button component={Link} to={`/w/${workspace.id}/scenarios/analysis/${scenarioId}/answers`} variant="default">
            Answers across calls
          </Button>
        {writer && (
          <Group gap="xs">
            <Button variant="light" onClick={openRun}>
              Run on recordings…
            </Button>
            <ConfirmButton title={`Delete “${scenario.data?.name ?? ''}”?`} consequence="The scenario stops running (also automatically); its results stay, under its id." confirm="Delete" onConfirm={() => remove.mutate()} loading={remove.isPending}>
              Delete
            </ConfirmButton>
          </Group>
        )}
        </Group>
      </Group>
      {speakersNamedIn && writer && <SpeakersNamedNotice workspaceId={workspace.id} transcriptionScenarioId={speakersNamedIn} {...(scenario.data ? { answerWith: { id: scenario.data.id, name: scenario.data.name } } : {})} />}
      {/* Said on every visit while calls cannot tell a speaker the questions ask about (the first such speaker). */}
      {!speakersNamedIn && askedSpeaker && <SpeakersMissingNotice workspaceId={workspace.id} speaker={askedSpeaker} writer={writer} {...(scenario.data ? { answerWith: { id: scenario.data.id, name: scenario.data.name } } : {})} />}
      {/* Just added, it answers a call only when run on it: offered to answer every new call by itself. */}
      {state?.added && writer && scenario.data && (
        <Alert color="blue" title={scenario.data.auto ? 'New calls are answered by themselves' : 'Answer every new call?'} role="status">
          {scenario.data.auto ? (
            <Text size="sm">Each call is answered with “{scenario.data.name}” once it is transcribed. Calls from before: Run on recordings….</Text>
          ) : (
            <Stack gap="xs">
              <Text size="sm">“{scenario.data.name}” answers a call when it is run on it. Turned on, it answers each new call once it is transcribed (the Automatic switch below).</Text>
              <Button size="xs" w="fit-content" onClick={() => save.mutate(undefined, { auto: true })} loading={save.isPending}>
                Answer new calls automatically
              </Button>
            </Stack>
          )}
        </Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <fieldset disabled={!writer} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack>
            {stale && <ChangedElsewhere onReload={reload} onOverwrite={overwrite} saving={save.isPending} />}
            <ProblemAlert error={save.error ?? remove.error} title="Not saved" />
            <TextInput label="Name" required value={draft.name} onChange={(e) => set({ name: e.currentTarget.value })} />
            <Textarea label="Instructions" description="Context for the engine, e.g. what kind of calls these are" autosize minRows={2} value={draft.instructions} onChange={(e) => set({ instructions: e.currentTarget.value })} />
            <Stack gap="xs">
              <Text fw={600}>Questions</Text>
              {questions.length === 0 && (
                <Text size="sm" c="dimmed">
                  No questions yet. Add one: a yes/no question (“Did the agent greet the customer?”) or an open one (“What did the customer ask for?”).
                </Text>
              )}
              {questions.map((q, index) => (
                <QuestionEditor
                  key={index}
                  question={q}
                  index={index}
                  count={questions.length}
                  speakers={speakers}
                  namedSpeakers={namedSpeakers}
                  onChange={(next) => setQuestions(questions.map((x, i) => (i === index ? withKey(q, next, index) : x)))}
                  onMove={(by) => move(index, by)}
                  onRemove={() => setQuestions(questions.filter((_, i) => i !== index))}
                />
              ))}
              <Button variant="default" w="fit-content" onClick={() => setQuestions([...questions, { id: nextKey(), text: '', type: 'boolean' }])}>
                Add a question
              </Button>
            </Stack>
            <Group grow align="start">
              <Select
                label="Engine"
                allowDeselect={false}
                data={available.map((e) => ({ value: e.engine, label: e.engine === 'basic' ? 'basic (no language model)' : e.engine }))}
                value={draft.engine}
                onChange={(value) => {
                  const next = available.find((e) => e.engine === value);
                  if (next) set({ engine: next.engine as Scenario['engine'], model: next.default_model });
                }}
              />
              <Select
                label="Model"
                description={engine?.any_model ? 'Any model name the server knows' : engine && engine.models.length === 0 ? 'No model file registered (hark models add)' : undefined}
                data={models}
                value={draft.model}
                searchable={engine?.any_model}
                allowDeselect={false}
                onChange={(model) => model && set({ model })}
              />
            </Group>
            <Switch label="Write a summary of each call" checked={draft.summary} onChange={(e) => set({ summary: e.currentTarget.checked })} />
            <Switch label="Automatic: analyse every new transcript with this scenario" checked={draft.auto} onChange={(e) => set({ auto: e.currentTarget.checked })} />
            {writer && (
              <Button type="submit" w="fit-content" loading={save.isPending} disabled={stale}>
                Save
              </Button>
            )}
          </Stack>
        </fieldset>
      </form>
      <RunOnRecordings workspaceId={workspace.id} kind="analysis" scenarioId={scenarioId} opened={running} onClose={closeRun} />
    </Stack>
  );
}
