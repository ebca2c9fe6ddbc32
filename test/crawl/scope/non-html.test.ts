// Tests of isLikelyNonHtml: file links are skipped, pages are not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLikelyNonHtml } from '../../../src/crawl/scope/index.js';

describe('isLikelyNonHtml', () => {
  const files = [
    'https://example.com/photo.jpg',
    'https://example.com/photo.JPEG',
    'https://example.com/a/b.png',
    'https://example.com/i.webp',
    'https://example.com/icon.svg',
    'https://example.com/favicon.ico',
    'https://example.com/doc.pdf',
    'https://example.com/DOC.PDF',
    'https://example.com/sheet.xlsx',
    'https://example.com/slides.pptx',
    'https://example.com/letter.docx',
    'https://example.com/pkg.zip',
    'https://example.com/src.tar.gz',
    'https://example.com/src.tgz',
    'https://example.com/x.7z',
    'https://example.com/site.css',
    'https://example.com/app.js',
    'https://example.com/mod.mjs',
    'https://example.com/clip.mp4',
    'https://example.com/song.mp3',
    'https://example.com/movie.webm',
    'https://example.com/font.woff2',
    'https://example.com/f.ttf',
    'https://example.com/setup.exe',
    'https://example.com/app.dmg',
    'https://example.com/app.apk',
    'https://example.com/data.csv',
    'https://example.com/doc.pdf?download=1',
    'https://example.com/doc.pdf#page=2',
    'https://example.com/a.jpg;jsessionid=1',
    '/relative/photo.jpg?x=1',
  ];
  const pages = [
    'https://example.com/',
    'https://example.com/page.html',
    'https://example.com/page.HTM',
    'https://example.com/index.php',
    'https://example.com/a.aspx',
    'https://example.com/a.jsp',
    'https://example.com/blog/post',
    'https://example.com/blog/post/',
    'https://example.com/images/',
    'https://example.com/pdf/',
    'https://example.com/jpg',
    'https://example.com/download.php?file=a.pdf',
    'https://example.com/page?img=a.png',
    'https://example.com/.well-known',
    'https://example.com/v1.2/docs',
    'https://example.com/feed.xml',
    'https://example.com/data.json',
    'https://example.com/robots.txt',
    'https://example.com/readme.md',
    'https://example.com/sites/example.ai',
    'https://example.com/name.',
    'https://example.com/archive.zip/',
    'not a url at all',
  ];
  for (const url of files) it(`skips ${url}`, () => assert.equal(isLikelyNonHtml(url), true));
  for (const url of pages) it(`keeps ${url}`, () => assert.equal(isLikelyNonHtml(url), false));
});
