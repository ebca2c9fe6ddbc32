// Recognizes links to files that are not web pages, so the crawler does not spend fetches on them.

/**
 * Extensions of resources the fetcher would refuse as a page anyway (it answers
 * UNSUPPORTED_CONTENT_TYPE for them). Text types it does return (`.txt`, `.md`, `.json`, `.xml`,
 * feeds) are deliberately absent: they can carry content a crawl is asked for. Extensions that are
 * also common top-level domains or words in page paths (`.ai`, `.so`, `.ps`, `.key`, `.map`, ...) are
 * left out too: a path such as `/reviews/example.ai` is usually a page, and a missed file only costs
 * one refused fetch while a wrongly skipped page is lost.
 */
const NON_HTML_EXTENSIONS: ReadonlySet<string> = new Set([
  // images
  'jpg',
  'jpeg',
  'jpe',
  'jfif',
  'png',
  'apng',
  'gif',
  'webp',
  'avif',
  'bmp',
  'ico',
  'cur',
  'svg',
  'svgz',
  'tif',
  'tiff',
  'heic',
  'heif',
  'psd',
  'eps',
  'cr2',
  'nef',
  'dng',
  'jxl',
  // audio and video
  'mp3',
  'wav',
  'ogg',
  'oga',
  'opus',
  'flac',
  'aac',
  'm4a',
  'wma',
  'mid',
  'midi',
  'aif',
  'aiff',
  'mp4',
  'm4v',
  'mov',
  'avi',
  'wmv',
  'flv',
  'f4v',
  'mkv',
  'webm',
  'mpg',
  'mpeg',
  'ogv',
  '3gp',
  '3g2',
  'm3u8',
  'mpd',
  'vob',
  // fonts
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  // documents
  'pdf',
  'doc',
  'docx',
  'docm',
  'dotx',
  'xls',
  'xlsx',
  'xlsm',
  'xlsb',
  'ppt',
  'pptx',
  'pps',
  'ppsx',
  'odt',
  'ods',
  'odp',
  'odg',
  'rtf',
  'epub',
  'mobi',
  'azw',
  'azw3',
  'djvu',
  'xps',
  'csv',
  'tsv',
  'ics',
  'vcf',
  // archives and disk images
  'zip',
  'rar',
  '7z',
  'tar',
  'gz',
  'tgz',
  'bz2',
  'tbz',
  'tbz2',
  'xz',
  'txz',
  'zst',
  'lz',
  'lzma',
  'cab',
  'iso',
  'dmg',
  'torrent',
  // stylesheets and scripts
  'css',
  'js',
  'mjs',
  'cjs',
  // binaries and packages
  'exe',
  'msi',
  'msix',
  'bin',
  'dll',
  'dylib',
  'deb',
  'rpm',
  'apk',
  'aab',
  'ipa',
  'appimage',
  'jar',
  'class',
  'wasm',
  'swf',
  'pkg',
  'crx',
  'xpi',
  'whl',
  'nupkg',
]);

/** Lower-cased extension of a URL path's last segment, or '' when it has none. */
function extensionOf(pathname: string): string {
  const slash = pathname.lastIndexOf('/');
  let segment = pathname.slice(slash + 1);
  // `;jsessionid=...` style matrix parameters are not part of the file name.
  const semicolon = segment.indexOf(';');
  if (semicolon !== -1) segment = segment.slice(0, semicolon);
  const dot = segment.lastIndexOf('.');
  // A leading dot (`/.well-known`, `/.env`) names a hidden file, not an extension.
  if (dot <= 0 || dot === segment.length - 1) return '';
  return segment.slice(dot + 1).toLowerCase();
}

/** Same rule as isLikelyNonHtml, for a path the caller has already parsed out of its URL. */
export function hasNonHtmlExtension(pathname: string): boolean {
  const extension = extensionOf(pathname);
  return extension !== '' && NON_HTML_EXTENSIONS.has(extension);
}

/**
 * URLs whose path ends in an extension of a non-HTML resource are not fetched as pages.
 * Only the path counts: `/download.php?file=a.pdf` is a page, `/a.pdf?v=2` is not.
 */
export function isLikelyNonHtml(url: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    // Not an absolute URL: read it as a bare path so `a.jpg?x` still counts.
    pathname = url.split(/[?#]/, 1)[0] ?? '';
  }
  return hasNonHtmlExtension(pathname);
}
