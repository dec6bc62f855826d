// Each page's title in the browser's tab, history and a screen reader's page change: what the page
// is, then the workspace, then Hark ("Reports · Support · Hark").
import { useDocumentTitle } from '@mantine/hooks';

export function usePageTitle(...parts: (string | null | undefined)[]): void {
  useDocumentTitle([...parts.filter((part): part is string => typeof part === 'string' && part !== ''), 'Hark'].join(' · '));
}
