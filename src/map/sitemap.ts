// One sitemap read as it arrives: gzip undone (by magic bytes), XML parsed by htmlparser2's streaming parser in
// XML mode (or a text sitemap, one URL a line), the <loc> of each <url> and <sitemap> handed on, under byte caps.
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';

/** What a sitemap turned out to be: a list of pages, a list of sitemaps, a text list, or none of them. */
export type SitemapKind = 'urlset' | 'sitemapindex' | 'text' | 'malformed';

export interface SitemapHandlers {
  /** A page's <loc> (or a text sitemap's line), as written; answering false stops the read. */
  page(loc: string): boolean;
  /** A <sitemap>'s <loc> in an index, as written. */
  sitemap(loc: string): void;
}

/** A byte allowance shared by every sitemap of one map call. */
export interface ByteBudget {
  remaining: number;
}

export interface SitemapReaderLimits {
  /** Decompressed bytes this sitemap may have. */
  maxBytes: number;
  /** <loc> entries (pages and sitemaps) read from this sitemap. */
  maxEntries: number;
  /** Shared by the call's sitemaps; decompressed bytes. */
  budget: ByteBudget;
}

/** Why a read stopped before the document's end, if it did. */
export type SitemapStop = 'handler' | 'too_large' | 'budget' | 'entries' | 'gzip_error';

export interface SitemapSummary {
  kind: SitemapKind;
  /** <loc> entries read. */
  entries: number;
  /** Decompressed bytes parsed. */
  bytes: number;
  stoppedBy?: SitemapStop;
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;
/** A <loc> longer than this is dropped (no crawler takes such a URL; browsers stop near 2 MB, servers at 8 KB). */
const MAX_LOC_CHARS = 8192;
/** Elements deeper than this are counted, not named: a sitemap is three levels deep. */
const MAX_STACK = 32;

function localName(tag: string): string {
  const colon = tag.lastIndexOf(':');
  return (colon === -1 ? tag : tag.slice(colon + 1)).toLowerCase();
}

/**
 * Feed it the body chunk by chunk (`write`, awaited), then `end`. It never holds more than the parser's current
 * element and one <loc>; a gzip stream is inflated with its output counted against the caps as it comes, so a
 * gzip bomb stops at the cap.
 */
export class SitemapReader {
  private mode: 'undecided' | 'gzip' | 'plain' = 'undecided';
  private head: Buffer = Buffer.alloc(0);
  private gunzip: zlib.Gunzip | undefined;
  private readonly decoder = new StringDecoder('utf8');
  private format: 'undecided' | 'xml' | 'text' = 'undecided';
  private parser: Parser | undefined;
  private kind: SitemapKind = 'malformed';
  private readonly stack: string[] = [];
  private overflow = 0;
  private loc: string | undefined;
  private textLine = '';
  private entries = 0;
  private bytes = 0;
  private stoppedBy: SitemapStop | undefined;

  constructor(
    private readonly handlers: SitemapHandlers,
    private readonly limits: SitemapReaderLimits,
  ) {}

  /** True while more of the body is wanted. */
  get wantsMore(): boolean {
    return this.stoppedBy === undefined;
  }

  /** Takes one chunk of the body (after any Content-Encoding); answers whether more is wanted. */
  async write(chunk: Buffer): Promise<boolean> {
    if (!this.wantsMore) return false;
    if (this.mode === 'undecided') {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < GZIP_MAGIC.length) return true;
      chunk = this.head;
      this.head = Buffer.alloc(0);
      this.mode = chunk[0] === GZIP_MAGIC[0] && chunk[1] === GZIP_MAGIC[1] ? 'gzip' : 'plain';
    }
    if (this.mode === 'plain') {
      this.take(chunk);
      return this.wantsMore;
    }
    await this.inflate(chunk);
    return this.wantsMore;
  }

  /** Ends the document (whatever was read) and says what it was. */
  async end(): Promise<SitemapSummary> {
    if (this.mode === 'undecided' && this.head.length > 0) {
      this.mode = 'plain';
      this.take(this.head);
    }
    if (this.mode === 'gzip' && this.gunzip && this.wantsMore) await this.finishGzip();
    this.gunzip?.destroy();
    const rest = this.decoder.end();
    if (rest && this.wantsMore) this.parseText(rest);
    this.parser?.end();
    if (this.format === 'text' && this.wantsMore) this.textEntry(this.textLine);
    return {
      kind: this.kind,
      entries: this.entries,
      bytes: this.bytes,
      ...(this.stoppedBy !== undefined ? { stoppedBy: this.stoppedBy } : {}),
    };
  }

  private gzipStream(): zlib.Gunzip {
    if (this.gunzip) return this.gunzip;
    // Lenient on a truncated stream, as the fetcher is with Content-Encoding.
    const gunzip = zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
    gunzip.on('data', (data: Buffer) => {
      if (this.wantsMore) this.take(data);
      if (!this.wantsMore) gunzip.destroy();
    });
    gunzip.on('error', () => {
      if (this.wantsMore) this.stoppedBy = 'gzip_error';
    });
    this.gunzip = gunzip;
    return gunzip;
  }

  /** Resolves once the chunk is inflated (and parsed), or the stream ended or failed. */
  private inflate(chunk: Buffer): Promise<void> {
    const gunzip = this.gzipStream();
    if (gunzip.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        gunzip.off('close', done);
        resolve();
      };
      gunzip.once('close', done);
      gunzip.write(chunk, () => done());
    });
  }

  private finishGzip(): Promise<void> {
    const gunzip = this.gunzip;
    if (!gunzip || gunzip.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      gunzip.once('end', () => resolve());
      gunzip.once('close', () => resolve());
      gunzip.end();
    });
  }

  /** Decompressed bytes: counted against the caps, then parsed. */
  private take(data: Buffer): void {
    if (!this.wantsMore || data.length === 0) return;
    if (this.bytes + data.length > this.limits.maxBytes) {
      this.stoppedBy = 'too_large';
      return;
    }
    if (data.length > this.limits.budget.remaining) {
      this.limits.budget.remaining = 0;
      this.stoppedBy = 'budget';
      return;
    }
    this.bytes += data.length;
    this.limits.budget.remaining -= data.length;
    this.parseText(this.decoder.write(data));
  }

  private parseText(text: string): void {
    if (this.format === 'undecided') {
      const start = text.replace(/^[\uFEFF\s]+/, '');
      if (start === '') return;
      this.format = start.startsWith('<') ? 'xml' : 'text';
      if (this.format === 'text') this.kind = 'text';
      text = start;
    }
    if (this.format === 'xml') this.xml().write(text);
    else this.textLines(text);
  }

  private xml(): Parser {
    if (this.parser) return this.parser;
    this.parser = new Parser(
      {
        onopentagname: (name) => this.open(localName(name)),
        ontext: (text) => {
          if (this.loc !== undefined) this.loc = this.loc.length > MAX_LOC_CHARS ? this.loc : this.loc + text;
        },
        onclosetag: (name) => this.close(localName(name)),
      },
      { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
    );
    return this.parser;
  }

  private open(name: string): void {
    if (this.stack.length === 0 && this.overflow === 0 && this.kind === 'malformed') {
      // The root decides what the document is; anything else (an HTML page, a feed) is not a sitemap.
      if (name === 'urlset' || name === 'sitemapindex') this.kind = name;
    }
    if (this.stack.length >= MAX_STACK) {
      this.overflow++;
      return;
    }
    const parent = this.stack[this.stack.length - 1];
    const grandparent = this.stack[this.stack.length - 2];
    if (
      name === 'loc' &&
      this.stack.length === 2 &&
      ((parent === 'url' && grandparent === 'urlset' && this.kind === 'urlset') ||
        (parent === 'sitemap' && grandparent === 'sitemapindex' && this.kind === 'sitemapindex'))
    ) {
      this.loc = '';
    }
    this.stack.push(name);
  }

  private close(name: string): void {
    if (this.overflow > 0) {
      this.overflow--;
      return;
    }
    if (this.stack.length === 0) return;
    this.stack.pop();
    if (name !== 'loc' || this.loc === undefined) return;
    const loc = this.loc.trim();
    this.loc = undefined;
    if (loc === '' || loc.length > MAX_LOC_CHARS || !this.wantsMore) return;
    this.entry(loc, this.kind === 'sitemapindex' ? 'sitemap' : 'page');
  }

  private textLines(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) break;
      this.textEntry(this.textLine + text.slice(start, newline));
      this.textLine = '';
      start = newline + 1;
      if (!this.wantsMore) return;
    }
    const rest = text.slice(start);
    // A line longer than any URL is dropped as it grows, not kept.
    this.textLine =
      this.textLine.length + rest.length > MAX_LOC_CHARS ? ' '.repeat(MAX_LOC_CHARS + 1) : this.textLine + rest;
  }

  private textEntry(line: string): void {
    const loc = line.trim();
    if (loc === '' || loc.length > MAX_LOC_CHARS || !/^https?:\/\//i.test(loc)) return;
    this.entry(loc, 'page');
  }

  private entry(loc: string, as: 'page' | 'sitemap'): void {
    if (this.entries >= this.limits.maxEntries) {
      this.stoppedBy = 'entries';
      return;
    }
    this.entries++;
    if (as === 'sitemap') this.handlers.sitemap(loc);
    else if (!this.handlers.page(loc)) this.stoppedBy = 'handler';
  }
}

/** A text sitemap with no URL line is no sitemap: the kind as the summary reports it, failed or not. */
export function isReadable(summary: SitemapSummary): boolean {
  return (
    summary.kind === 'urlset' || summary.kind === 'sitemapindex' || (summary.kind === 'text' && summary.entries > 0)
  );
}
