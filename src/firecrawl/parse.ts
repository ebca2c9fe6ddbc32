// POST /v2/parse: a file the client uploads (multipart: `file` and `options` as JSON) turned into a Document by the
// same extraction as a fetched page (docs/firecrawl.md, "Parse"). HTML, XHTML and text types; nothing is stored.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InvalidInputError } from '../domain/errors.js';
import { ownerOf } from '../http/auth.js';
import { requestBaseUrl } from '../http/base-url.js';
import { parseOrThrow } from '../http/validation.js';
import type { ScrapeService } from '../scrape/service.js';
import { toFirecrawlDocument } from './document.js';
import { hangUpSignal } from './hang-up.js';
import { inV2Words, refusalError } from './errors.js';
import { mapScrapeOptions, scrapeOnlyRefusals, v2ScrapeOptionsShape } from './scrape-options.js';

/** What a parse request may carry besides the file: the page options a file can honour (no waits, no proxy). */
const parseOptionsSchema = z.strictObject({
  formats: v2ScrapeOptionsShape.formats,
  onlyMainContent: v2ScrapeOptionsShape.onlyMainContent,
  includeTags: v2ScrapeOptionsShape.includeTags,
  excludeTags: v2ScrapeOptionsShape.excludeTags,
  timeout: v2ScrapeOptionsShape.timeout,
  parsers: v2ScrapeOptionsShape.parsers,
  removeBase64Images: v2ScrapeOptionsShape.removeBase64Images,
  skipTlsVerification: v2ScrapeOptionsShape.skipTlsVerification,
  blockAds: v2ScrapeOptionsShape.blockAds,
  fastMode: v2ScrapeOptionsShape.fastMode,
  integration: v2ScrapeOptionsShape.integration,
  origin: v2ScrapeOptionsShape.origin,
});

/** Media types by file extension, for an upload sent as application/octet-stream (or with no type). */
const BY_EXTENSION: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  json: 'application/json',
  xml: 'application/xml',
  pdf: 'application/pdf',
};

function mediaTypeOf(declared: string, filename: string): string {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if (type !== '' && type !== 'application/octet-stream') return type;
  const extension = filename.toLowerCase().split('.').pop() ?? '';
  return BY_EXTENSION[extension] ?? (type || 'application/octet-stream');
}

export interface ParseRouteDeps {
  scrape: ScrapeService;
  publicUrl: string | undefined;
  /** The largest file accepted (SCRAPE_MAX_BYTES, as for a fetched page). */
  maxFileBytes: number;
}

export async function registerParseRoute(app: FastifyInstance, deps: ParseRouteDeps): Promise<void> {
  // Only in the /v2 context: /v1 takes JSON bodies alone.
  await app.register(multipart, {
    limits: { fileSize: deps.maxFileBytes, files: 1, fields: 4, fieldSize: 64 * 1024, parts: 6, headerPairs: 100 },
  });
  app.post(
    '/parse',
    { schema: { tags: ['firecrawl'], summary: 'Extract an uploaded HTML or text file (Firecrawl v2)' } },
    async (request, reply) => {
      ownerOf(request); // a key is needed, though nothing is stored for it
      if (!request.isMultipart())
        throw new InvalidInputError([
          { field: 'file', code: 'custom', message: 'Send the file as multipart/form-data, with a `file` part' },
        ]);
      let file: { name: string; mediaType: string; bytes: Buffer } | undefined;
      let rawOptions: unknown = {};
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const bytes = await part.toBuffer();
            file = { name: part.filename || 'upload', mediaType: mediaTypeOf(part.mimetype, part.filename), bytes };
          } else if (part.fieldname === 'options') {
            try {
              rawOptions = JSON.parse(String(part.value));
            } catch {
              throw new InvalidInputError([
                { field: 'options', code: 'invalid_json', message: 'options must be JSON' },
              ]);
            }
          }
        }
      } catch (error) {
        // The multipart reader's own errors without a status (a body cut short, a broken boundary) are the client's.
        const status = (error as { statusCode?: unknown }).statusCode;
        if (error instanceof InvalidInputError || typeof status === 'number') throw error;
        throw new InvalidInputError([
          {
            field: 'file',
            code: 'custom',
            message: `The multipart body could not be read: ${(error as Error).message}`,
          },
        ]);
      }
      if (file === undefined || file.bytes.length === 0)
        throw new InvalidInputError([{ field: 'file', code: 'custom', message: 'A non-empty `file` part is needed' }]);
      const options = parseOrThrow(parseOptionsSchema, rawOptions);
      const mapped = mapScrapeOptions(options);
      const refusals = [...mapped.refusals, ...scrapeOnlyRefusals(mapped)];
      if (refusals.length > 0) throw refusalError(refusals);
      const signal = hangUpSignal(reply);
      const page = await inV2Words(mapped.renames, () => deps.scrape.parseFile(file, mapped.page, signal));
      return { success: true, data: toFirecrawlDocument(page, requestBaseUrl(request, deps.publicUrl)) };
    },
  );
}
