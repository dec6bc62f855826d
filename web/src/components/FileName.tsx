// A file name that may wrap after its separators ("sam_2026-11-20_billing.wav" as a phone's title), not
// inside a word.
import { Fragment } from 'react';

export function FileName({ name }: { name: string }) {
  return name.split(/(?<=[_\-.])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
