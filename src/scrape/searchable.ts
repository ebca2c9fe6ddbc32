// What the index keeps of a page the pipeline produced: only pages that answered (HTTP < 400) with some text.
import type { IndexedPageResult } from './pipeline.js';
import type { SearchablePage } from '../search-index/index-store.js';

export function searchableOf(run: IndexedPageResult): SearchablePage | undefined {
  const { page, searchText } = run;
  if (searchText === undefined || page.metadata.status_code >= 400) return undefined;
  if (searchText.trim() === '' && page.title.trim() === '') return undefined;
  const language = page.metadata.language;
  return {
    url: page.metadata.final_url || page.url,
    title: page.title,
    text: searchText,
    ...(typeof language === 'string' && language !== '' ? { language } : {}),
  };
}
