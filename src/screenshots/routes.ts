// GET /v1/screenshots/:id: the PNG of a browser render, for the key that made it.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ownerOf } from '../http/auth.js';
import { notFound, uuidParam } from '../http/errors.js';
import { SCREENSHOT_ROUTE, type ScreenshotStore } from './store.js';

export function screenshotRoutes(store: ScreenshotStore) {
  return (app: FastifyInstance): void => {
    app.get<{ Params: { id: string } }>(
      `${SCREENSHOT_ROUTE}/:id`,
      {
        schema: {
          tags: ['scrape'],
          summary: 'Screenshot of a page',
          description:
            'The PNG taken for a `screenshot` or `screenshot@fullPage` format; the `screenshot` field of a scrape or crawl result is this URL. Only the key that made it can read it; it is deleted with its job.',
          params: z.object({ id: z.string() }),
        },
      },
      async (request, reply) => {
        const id = uuidParam(request.params.id, 'screenshot');
        const file = await store.read(ownerOf(request), id);
        if (!file) throw notFound('screenshot');
        return reply
          .header('content-type', 'image/png')
          .header('content-length', String(file.bytes))
          .header('cache-control', 'private, max-age=86400, immutable')
          .send(file.content);
      },
    );
  };
}
