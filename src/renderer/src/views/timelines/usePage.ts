// Load one full page timeline and keep it current: fetched again whenever the page's summary changes on
// the stream.
import type { PageTimelineDto } from '../../../../shared/timeline';
import { loadPage } from '../../state/pages';
import { useSandbox } from '../../state/store';
import { useRefetched } from '../../state/useLiveList';

export type PageLoad =
  | { phase: 'loading' }
  | { phase: 'ready'; page: PageTimelineDto }
  | { phase: 'missing' }
  | { phase: 'error'; message: string };

const fetchPage = (key: string) => loadPage('', key);

export function usePage(key: string): [PageLoad, () => void] {
  const summary = useSandbox((s) => s.pages.summaries.get(key));
  const [state, retry] = useRefetched(key, fetchPage, summary);
  // another page's answer is not this page's: loading until this one's comes
  const { load } = state.key === key ? state : { load: { phase: 'loading' } as const };
  if (load.phase !== 'ready') return [load, retry];
  return [load.value ? { phase: 'ready', page: load.value } : { phase: 'missing' }, retry];
}
