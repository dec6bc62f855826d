// What the API key and webhook sections share: a form that makes something whose secret is shown
// once (its fields, the problem of the last try, the submit button), and a grid of checkboxes.
import { Button, Checkbox, SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { ProblemAlert } from '../Problem.tsx';

export function CreateForm(props: { onSubmit: () => void; error: unknown; failed: string; submit: string; disabled: boolean; pending: boolean; children: ReactNode }) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <Stack>
        <ProblemAlert error={props.error} title={props.failed} />
        {props.children}
        <Button type="submit" w="fit-content" disabled={props.disabled} loading={props.pending}>
          {props.submit}
        </Button>
      </Stack>
    </form>
  );
}

/** Checkboxes in columns; `all`, when given, comes first and stands for every other one (which it then disables). */
export function CheckboxGrid<T extends string>(props: { label: string; options: readonly T[]; value: T[]; onChange: (value: T[]) => void; all?: { value: T; label: string } }) {
  const everything = props.all !== undefined && props.value.includes(props.all.value);
  return (
    <Checkbox.Group label={props.label} value={props.value} onChange={(v) => props.onChange(v as T[])}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} mt="xs" spacing={6}>
        {props.all && <Checkbox value={props.all.value} label={props.all.label} />}
        {props.options.map((option) => (
          <Checkbox key={option} value={option} label={option} disabled={everything} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
