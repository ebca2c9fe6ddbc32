// Loads the article-extraction benchmark pages (gzipped HTML) and their ground truth from the shared bench folder.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const BENCH_DIR = process.env['ARTICLE_BENCH_DIR'] ?? '/work/shared/bench/article-extraction';

export interface BenchPage {
  key: string;
  url: string;
  html: string;
  truth: string;
}

export function loadPages(dir = BENCH_DIR): BenchPage[] {
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<
    string,
    { url: string; articleBody: string }
  >;
  const htmlDir = join(dir, 'html');
  return readdirSync(htmlDir)
    .filter((f) => f.endsWith('.html.gz'))
    .sort()
    .map((file) => {
      const key = file.slice(0, -'.html.gz'.length);
      const gt = truth[key];
      if (!gt) throw new Error(`no ground truth for ${key}`);
      // All pages of the set are UTF-8.
      const html = gunzipSync(readFileSync(join(htmlDir, file))).toString('utf8');
      return { key, url: gt.url, html, truth: gt.articleBody };
    });
}
