// Scenarios: how the workspace transcribes and which questions it asks, each openable for editing;
// new ones are created here, once named (a click alone leaves no empty scenario behind).
import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, ok } from '../api/client.ts';
import { keys, useAnalysisScenarios, useTranscriptionScenarios } from '../api/queries.ts';
import { ProblemAlert } from '../components/Problem.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { can } from '../session.tsx';
import { usePageTitle } from '../components/PageTitle.ts';

export default function Scenarios() {
  const workspace = useWorkspace();
  usePageTitle('Scenarios', workspace.name);
  const path = { workspace_id: workspace.id };
  const transcription = useTranscriptionScenarios(workspace.id);
  const analysis = useAnalysisScenarios(workspace.id);
  const callQa = analysis.data?.data.find((scenario) => scenario.name === 'Call QA');
  const navigate = useNavigate();
  const client = useQueryClient();
  const writer = can.write(workspace.role);

  // The kind of scenario being named before it is created, and its name.
  const [naming, setNaming] = useState<'analysis' | 'transcription' | null>(null);
  const [name, setName] = useState('');
  const startNaming = (kind: 'analysis' | 'transcription') => {
    setName('');
    createAnalysis.reset();
    createTranscription.reset();
    setNaming(kind);
  };
  const createAnalysis = useMutation({
    mutationFn: (named: string) => ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-scenarios', { params: { path }, body: { name: named, questions: [] } })),
    onSuccess: async (scenario) => {
      await client.invalidateQueries({ queryKey: keys.analysisScenarios(workspace.id) });
      navigate(`/w/${workspace.id}/scenarios/analysis/${scenario.id}`);
    },
  });
  const addCallQa = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/workspaces/{workspace_id}/analysis-scenarios/from-template', { params: { path }, body: { template: 'call_qa' } })),
    onSuccess: async (scenario) => {
      await Promise.all([client.invalidateQueries({ queryKey: keys.analysisScenarios(workspace.id) }), client.invalidateQueries({ queryKey: keys.transcriptionScenarios(workspace.id) })]);
      navigate(`/w/${workspace.id}/scenarios/analysis/${scenario.id}`, { state: { speakersNamedIn: scenario.labelled_transcription_scenario_id, added: true } });
    },
  });
  const createTranscription = useMutation({
    mutationFn: (named: string) => ok(api.POST('/api/v1/workspaces/{workspace_id}/transcription-scenarios', { params: { path }, body: { name: named } })),
    onSuccess: async (scenario) => {
      await client.invalidateQueries({ queryKey: keys.transcriptionScenarios(workspace.id) });
      navigate(`/w/${workspace.id}/scenarios/transcription/${scenario.id}`);
    },
  });

  return (
    <Stack gap="xl">
      <Title order={1}>Scenarios</Title>
      <ProblemAlert error={addCallQa.error ?? analysis.error ?? transcription.error} />
      <Modal opened={naming !== null} onClose={() => setNaming(null)} closeButtonProps={{ 'aria-label': 'Close' }} title={naming === 'transcription' ? 'New transcription scenario' : 'New analysis scenario'}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const named = name.trim();
            if (!named) return;
            // The dialog stays until the scenario is made (the page opens it): a refusal is said here, the name kept.
            (naming === 'transcription' ? createTranscription : createAnalysis).mutate(named);
          }}
        >
          <Stack>
            <ProblemAlert error={naming === 'transcription' ? createTranscription.error : createAnalysis.error} title="Not created" />
            <TextInput label="Name" placeholder={naming === 'transcription' ? 'e.g. Two-channel calls' : 'e.g. Call review'} required data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={200} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setNaming(null)}>
                Cancel
              </Button>
              <Button type="submit" disabled={!name.trim()} loading={createAnalysis.isPending || createTranscription.isPending}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Stack>
        <Group justify="space-between">
          <Title order={2} fz="h3">
            Questions (analysis scenarios)
          </Title>
          {writer && (
            <Group gap="xs">
              {callQa ? (
                // Added already: open it (a second copy, "Call QA 2", is rarely what was meant).
                <Button variant="light" component={Link} to={`/w/${workspace.id}/scenarios/analysis/${callQa.id}`}>
                  Open Call QA
                </Button>
              ) : (
                <Button variant="light" onClick={() => addCallQa.mutate()} loading={addCallQa.isPending} title="Greeting in the first 15 seconds, recording notice, refund offered, call reason">
                  Add Call QA
                </Button>
              )}
              <Button onClick={() => startNaming('analysis')} loading={createAnalysis.isPending}>
                New analysis scenario
              </Button>
            </Group>
          )}
        </Group>
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Analysis scenarios" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Questions</Table.Th>
                <Table.Th>Engine</Table.Th>
                <Table.Th>Runs</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {analysis.data?.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/w/${workspace.id}/scenarios/analysis/${s.id}`}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{s.questions.length}</Table.Td>
                  {/* The basic engine's "model" is its lexicon's package name: said as what it is. */}
                  <Table.Td>{s.engine === 'basic' ? 'basic (no language model)' : `${s.engine} · ${s.model}`}</Table.Td>
                  <Table.Td>{s.auto ? <Badge>automatic</Badge> : <Text size="sm" c="dimmed">when asked</Text>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
      <Stack>
        <Group justify="space-between">
          <Title order={2} fz="h3">
            Transcription scenarios
          </Title>
          {writer && (
            <Button variant="default" onClick={() => startNaming('transcription')} loading={createTranscription.isPending}>
              New transcription scenario
            </Button>
          )}
        </Group>
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Transcription scenarios" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Engine</Table.Th>
                <Table.Th>Language</Table.Th>
                <Table.Th>Runs</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transcription.data?.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/w/${workspace.id}/scenarios/transcription/${s.id}`}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {s.engine} · {s.model}
                  </Table.Td>
                  <Table.Td>{s.language}</Table.Td>
                  <Table.Td>{s.auto ? <Badge>automatic</Badge> : <Text size="sm" c="dimmed">when asked</Text>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Stack>
  );
}
