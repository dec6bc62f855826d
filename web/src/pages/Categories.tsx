// Call categories: rules that sort calls (a phrase said or never said, by a speaker, in the first
// seconds; something meant, whatever the words; a talk statistic; a speaker's sentiment), each evaluated on every new transcript. Here
// they are listed in words, written and changed in an editor, applied to the calls already
// transcribed, and each opens the list of the calls that meet it.
import { ActionIcon, Alert, Anchor, Button, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Switch, Table, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../api/client.ts';
import { keys, useCategories } from '../api/queries.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { ProblemAlert } from '../components/Problem.tsx';
import { useWorkspace } from '../components/WorkspaceLayout.tsx';
import { blankCondition, callWide, describeRule, withMetric, SIMILAR_THRESHOLD, talkMetricNames, type CategoryRule, type Condition, type ConditionType } from '../lib/categories.ts';
import { can } from '../session.tsx';
import { usePageTitle } from '../components/PageTitle.ts';
import { useMediaQuery } from '@mantine/hooks';
import '../styles/phone-cards.css';

type Category = Schemas['Category'] & { recordings: number };
interface Draft {
  id: string | null;
  name: string;
  rule: CategoryRule;
}

const conditionTypes: { value: ConditionType; label: string }[] = [
  { value: 'phrase', label: 'A phrase, said or not' },
  { value: 'similar_to', label: 'A meaning, any words' },
  { value: 'talk', label: 'A talk statistic' },
  { value: 'sentiment', label: 'A speaker\'s sentiment' },
];
const ops = [
  { value: 'above', label: 'above' },
  { value: 'below', label: 'below' },
];

export default function Categories() {
  const workspace = useWorkspace();
  usePageTitle('Categories', workspace.name);
  const cards = useMediaQuery('(max-width: 36em)');
  const path = { workspace_id: workspace.id };
  const categories = useCategories(workspace.id);
  const client = useQueryClient();
  const writer = can.write(workspace.role);
  const [draft, setDraft] = useState<Draft | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: keys.categories(workspace.id) });

  const save = useMutation({
    mutationFn: (value: Draft) =>
      value.id
        ? ok(api.PATCH('/api/v1/workspaces/{workspace_id}/categories/{category_id}', { params: { path: { ...path, category_id: value.id } }, body: { name: value.name, rule: value.rule } }))
        : ok(api.POST('/api/v1/workspaces/{workspace_id}/categories', { params: { path }, body: { name: value.name, rule: value.rule } })),
    onSuccess: async (saved) => {
      setDraft(null);
      await refresh();
      // A rule just written or changed is checked against the calls already transcribed at once, so
      // its count is never the 0 (or the old rule's) that waits for "Check calls again".
      notifications.show({ color: 'green', message: `Saved “${saved.name}”. New transcripts are sorted by it; checking the calls already transcribed…` });
      apply.mutate(saved);
    },
  });
  const apply = useMutation({
    mutationFn: (category: Pick<Category, 'id' | 'name'>) => ok(api.POST('/api/v1/workspaces/{workspace_id}/categories/{category_id}/evaluate', { params: { path: { ...path, category_id: category.id } } })),
    onSuccess: async (result, category) => {
      notifications.show({ color: 'green', message: `“${category.name}”: ${result.matched} of ${result.recordings} transcribed calls meet it.` });
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (category: Category) => ok(api.DELETE('/api/v1/workspaces/{workspace_id}/categories/{category_id}', { params: { path: { ...path, category_id: category.id } } })),
    onSuccess: refresh,
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1}>Call categories</Title>
        {writer && !draft && <Button onClick={() => setDraft({ id: null, name: '', rule: { match: 'all', conditions: [blankCondition('phrase')] } })}>New category</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        A category sorts calls by a rule: a call meets it when all (or any) of its conditions hold. Saving a category checks the calls already transcribed against it, and every new or corrected transcript is checked as it is stored. Filter the recordings by a category (the API filters answers and reports too), and group reports by it.
      </Text>
      <ProblemAlert error={categories.error ?? apply.error ?? remove.error} />
      {draft && <CategoryEditor draft={draft} onChange={setDraft} onCancel={() => setDraft(null)} onSave={() => save.mutate(draft)} saving={save.isPending} error={save.error} />}
      {categories.data && categories.data.data.length === 0 && !draft && <Text c="dimmed">No categories yet.</Text>}
      {categories.data && categories.data.data.length > 0 && (
        // On a phone each category is a block of its own (phone-cards.css), its buttons on screen.
        <Table.ScrollContainer minWidth={cards ? 0 : 560}>
          <Table aria-label="Categories" verticalSpacing="sm" className="hark-phone-cards">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Calls</Table.Th>
                <Table.Th>Rule</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {categories.data.data.map((category) => (
                <Table.Tr key={category.id} data-category-row={category.name}>
                  <Table.Td>
                    <Anchor component={Link} to={`/w/${workspace.id}/recordings?category=${category.id}`} title="The calls that meet it">
                      {category.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td data-category-calls data-label="Calls">
                    {category.recordings}
                  </Table.Td>
                  <Table.Td data-label="Rule">
                    <Text size="sm">{describeRule(category.rule)}</Text>
                  </Table.Td>
                  <Table.Td>
                    {writer && (
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Button variant="subtle" size="compact-sm" onClick={() => setDraft({ id: category.id, name: category.name, rule: category.rule })}>
                          Edit
                        </Button>
                        <Button variant="subtle" size="compact-sm" onClick={() => apply.mutate(category)} loading={apply.isPending && apply.variables?.id === category.id} title="Saving checked them already; check every transcribed call against it once more">
                          Check calls again
                        </Button>
                        <ConfirmButton size="compact-sm" title={`Delete “${category.name}”?`} consequence="Calls lose this category; their transcripts are kept." confirm="Delete" onConfirm={() => remove.mutate(category)}>
                          Delete
                        </ConfirmButton>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function CategoryEditor({ draft, onChange, onCancel, onSave, saving, error }: { draft: Draft; onChange: (next: Draft) => void; onCancel: () => void; onSave: () => void; saving: boolean; error: unknown }) {
  const setCondition = (index: number, next: Condition) => onChange({ ...draft, rule: { ...draft.rule, conditions: draft.rule.conditions.map((c, i) => (i === index ? next : c)) } });
  const removeCondition = (index: number) => onChange({ ...draft, rule: { ...draft.rule, conditions: draft.rule.conditions.filter((_, i) => i !== index) } });
  return (
    <Paper withBorder p="md" radius="md" aria-label={draft.id ? 'Edit the category' : 'New category'} component="section">
      <Stack gap="sm">
        <TextInput label="Name" placeholder="e.g. Refund offered" value={draft.name} onChange={(e) => onChange({ ...draft, name: e.currentTarget.value })} maxLength={200} required />
        <Group gap="sm" align="center">
          <Text size="sm">A call meets it when</Text>
          <SegmentedControl
            size="xs"
            aria-label="Which conditions must hold"
            value={draft.rule.match}
            onChange={(match) => onChange({ ...draft, rule: { ...draft.rule, match: match as 'all' | 'any' } })}
            data={[
              { value: 'all', label: 'all hold' },
              { value: 'any', label: 'any holds' },
            ]}
          />
        </Group>
        {draft.rule.conditions.map((condition, index) => (
          <ConditionEditor key={index} index={index} condition={condition} onChange={(next) => setCondition(index, next)} onRemove={draft.rule.conditions.length > 1 ? () => removeCondition(index) : undefined} />
        ))}
        <Group gap="xs">
          <Button variant="default" size="compact-sm" onClick={() => onChange({ ...draft, rule: { ...draft.rule, conditions: [...draft.rule.conditions, blankCondition('phrase')] } })} disabled={draft.rule.conditions.length >= 20}>
            Add a condition
          </Button>
        </Group>
        <Alert variant="light" color="gray" p="xs">
          <Text size="sm">{describeRule(draft.rule)}</Text>
        </Alert>
        <ProblemAlert error={error} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onSave} loading={saving} disabled={!draft.name.trim()}>
            Save category
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The condition without an optional field (absent, not empty, is what the API reads as "anyone"). */
function without<C extends Condition>(condition: C, field: 'speaker' | 'within_seconds'): C {
  const copy = { ...condition };
  delete (copy as Partial<Record<typeof field, unknown>>)[field];
  return copy;
}

function ConditionEditor({ index, condition, onChange, onRemove }: { index: number; condition: Condition; onChange: (next: Condition) => void; onRemove: (() => void) | undefined }) {
  const speaker = (
    <TextInput
      label="Speaker"
      placeholder={condition.type === 'phrase' || condition.type === 'similar_to' ? 'anyone' : 'the call'}
      value={condition.speaker ?? ''}
      onChange={(e) => {
        const value = e.currentTarget.value.trim();
        onChange(value ? { ...condition, speaker: value } : without(condition, 'speaker'));
      }}
      w={130}
    />
  );
  // A time window, for the conditions on what was said.
  const within = (condition.type === 'phrase' || condition.type === 'similar_to') && (
    <NumberInput
      label="In the first (s)"
      placeholder="anywhere"
      value={condition.within_seconds ?? ''}
      min={1}
      onChange={(v) => onChange(typeof v === 'number' && v > 0 ? { ...condition, within_seconds: v } : without(condition, 'within_seconds'))}
      w={120}
    />
  );
  const number = (label: string, value: number, set: (value: number) => void, props: { min?: number; max?: number; step?: number } = {}) => (
    <NumberInput label={label} value={value} onChange={(v) => typeof v === 'number' && set(v)} w={110} decimalScale={2} {...props} />
  );
  return (
    <Paper withBorder p="sm" radius="sm" aria-label={`Condition ${index + 1}`} component="fieldset" style={{ minWidth: 0 }}>
      <Group align="end" gap="sm" wrap="wrap">
        <Select label={`Condition ${index + 1}`} data={conditionTypes} value={condition.type} allowDeselect={false} onChange={(type) => type && type !== condition.type && onChange(blankCondition(type as ConditionType))} w={240} />
        {condition.type === 'phrase' && (
          <>
            <TagsInput label="Phrases (any of them)" placeholder="Enter after each" value={condition.phrases} onChange={(phrases) => onChange({ ...condition, phrases })} maxTags={50} w={260} />
            <Switch label="Never said" checked={condition.said === false} onChange={(e) => onChange({ ...condition, said: !e.currentTarget.checked })} mb={8} />
            {speaker}
            {within}
          </>
        )}
        {condition.type === 'similar_to' && (
          <>
            <TextInput
              label="Says something like"
              description="As the speaker would say it"
              placeholder="I want my money back"
              value={condition.text}
              onChange={(e) => onChange({ ...condition, text: e.currentTarget.value })}
              maxLength={300}
              w={260}
            />
            {speaker}
            {within}
            {number('Similarity', condition.threshold ?? SIMILAR_THRESHOLD, (threshold) => onChange({ ...condition, threshold }), { min: 0, max: 1, step: 0.05 })}
          </>
        )}
        {condition.type === 'talk' && (
          <>
            <Select
              label="Statistic"
              data={Object.entries(talkMetricNames).map(([value, label]) => ({ value, label }))}
              value={condition.metric}
              allowDeselect={false}
              onChange={(metric) => metric && onChange(withMetric(condition, metric as typeof condition.metric))}
              w={200}
            />
            {!callWide(condition.metric) && speaker}
            <Select label="Is" data={ops} value={condition.op} allowDeselect={false} onChange={(op) => op && onChange({ ...condition, op: op as 'above' | 'below' })} w={100} />
            {number('Value', condition.value, (value) => onChange({ ...condition, value }), { min: 0 })}
          </>
        )}
        {condition.type === 'sentiment' && (
          <>
            {speaker}
            <Select
              label="Over"
              data={[
                { value: 'mean', label: 'the whole call' },
                { value: 'first_third', label: 'the first third' },
                { value: 'last_third', label: 'the last third' },
              ]}
              value={condition.part ?? 'mean'}
              allowDeselect={false}
              onChange={(part) => part && onChange({ ...condition, part: part as 'mean' | 'first_third' | 'last_third' })}
              w={150}
            />
            <Select label="Is" data={ops} value={condition.op} allowDeselect={false} onChange={(op) => op && onChange({ ...condition, op: op as 'above' | 'below' })} w={100} />
            {number('Value (−1 to 1)', condition.value, (value) => onChange({ ...condition, value }), { min: -1, max: 1, step: 0.05 })}
          </>
        )}
        {onRemove && (
          <ActionIcon variant="subtle" color="red" onClick={onRemove} aria-label={`Remove condition ${index + 1}`} mb={4}>
            ✕
          </ActionIcon>
        )}
      </Group>
    </Paper>
  );
}
