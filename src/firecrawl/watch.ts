// The WebSocket at /v2/crawl/:id (and /v2/batch/scrape/:id) that Firecrawl's `watcher` opens: a `catchup` with the
// job's state and the documents so far, then each new document as it is saved, then a close whose reason is
// `{"type":"done"}` once the job has ended and every document was sent (docs/firecrawl.md, "Watching a job").
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { NotFoundError } from '../domain/errors.js';
import { type FirecrawlDocument, toFirecrawlDocument } from './document.js';
import { type FrontierJobReader, firecrawlStatus, RESULTS_PAGE_SIZE } from './job-views.js';

export const WATCH_LIMITS = {
  /** Documents a catchup carries at most; a finished job with more is streamed, then read with its status. */
  catchupDocuments: 1000,
  /** Characters of documents a catchup carries at most (the rest follow one message each). */
  catchupChars: 8 * 1024 * 1024,
  /** How often a running job is looked at for new documents. */
  pollMs: 1000,
  /** Bytes queued on one socket before the sender waits for the client to read. */
  maxBufferedBytes: 4 * 1024 * 1024,
  /** How long a client may stay that far behind before its socket is closed (1008). */
  slowReaderMs: 30_000,
  /** A ping every this often; a client that did not answer the last one is cut off. */
  heartbeatMs: 30_000,
  /** Open watch sockets in one process, and of one key; more are closed at once with 1013 (try again later). */
  maxSockets: 256,
  maxSocketsPerKey: 32,
} as const;

let openSockets = 0;
const socketsOfKey = new Map<string, number>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once the socket's send buffer is below the limit (true), or false when it closed or its client stayed too
 * far behind for too long (then it is closed here: a client that stops reading holds nothing for long).
 */
async function drained(socket: WebSocket): Promise<boolean> {
  const giveUpAt = Date.now() + WATCH_LIMITS.slowReaderMs;
  while (socket.readyState === socket.OPEN && socket.bufferedAmount > WATCH_LIMITS.maxBufferedBytes) {
    if (Date.now() > giveUpAt) {
      closeWith(socket, 1008, { type: 'error', error: 'The client read too slowly; poll the status instead' });
      socket.terminate();
      return false;
    }
    await sleep(50);
  }
  return socket.readyState === socket.OPEN;
}

function closeWith(socket: WebSocket, code: number, reason: Record<string, unknown>): void {
  if (socket.readyState === socket.OPEN) socket.close(code, JSON.stringify(reason));
}

/**
 * Serves one watcher. `ownerId` is the key's owner (the handshake was authenticated like any request); the job must be
 * theirs. Never throws: every failure ends in a close whose reason says why in Firecrawl's words.
 */
export async function watchJob(
  socket: WebSocket,
  request: FastifyRequest,
  deps: { reader: FrontierJobReader; ownerId: string; id: string; baseUrl: string },
): Promise<void> {
  const { reader, ownerId, id, baseUrl } = deps;
  if (openSockets >= WATCH_LIMITS.maxSockets || (socketsOfKey.get(ownerId) ?? 0) >= WATCH_LIMITS.maxSocketsPerKey) {
    closeWith(socket, 1013, { type: 'error', error: 'Too many watchers open; poll the status instead' });
    return;
  }
  openSockets++;
  socketsOfKey.set(ownerId, (socketsOfKey.get(ownerId) ?? 0) + 1);
  let released = false;
  // The slot is given back as soon as the socket closes, not when the loop below next looks.
  const release = () => {
    if (released) return;
    released = true;
    openSockets--;
    const left = (socketsOfKey.get(ownerId) ?? 1) - 1;
    if (left > 0) socketsOfKey.set(ownerId, left);
    else socketsOfKey.delete(ownerId);
    clearInterval(heartbeat);
  };
  let closed = false;
  // A peer that vanished without a close (a cable pulled, a NAT dropped) stops answering pings: cut it off.
  let alive = true;
  socket.on('pong', () => {
    alive = true;
  });
  const heartbeat = setInterval(() => {
    if (!alive) {
      socket.terminate();
      return;
    }
    alive = false;
    socket.ping();
  }, WATCH_LIMITS.heartbeatMs);
  heartbeat.unref();
  socket.on('close', () => {
    closed = true;
    release();
  });
  // Messages from the client mean nothing here; a client that sends a lot is not buffered (ws's maxPayload bounds it).
  socket.on('message', () => undefined);
  const page = async (skip: number) => reader.results(ownerId, id, skip, baseUrl);
  const send = async (message: unknown): Promise<boolean> => {
    if (!(await drained(socket))) return false;
    socket.send(JSON.stringify(message));
    return true;
  };
  try {
    // Catchup: the documents so far, up to the caps (count and characters); the rest follow one message each.
    const catchup: FirecrawlDocument[] = [];
    let chars = 0;
    let full = false;
    const opening = await reader.statusAndResults(ownerId, id, 0, baseUrl);
    let first = opening.results;
    let sent = 0;
    for (;;) {
      for (const item of first.data) {
        const doc = toFirecrawlDocument(item, baseUrl, id);
        const size = JSON.stringify(doc).length;
        if (catchup.length >= WATCH_LIMITS.catchupDocuments || chars + size > WATCH_LIMITS.catchupChars) {
          full = true;
          break;
        }
        catchup.push(doc);
        chars += size;
        sent++;
      }
      if (full || first.next === undefined) break;
      first = await page(sent);
    }
    const ended = firecrawlStatus(first.status) !== 'scraping';
    const complete = ended && !full && first.next === undefined;
    if (
      !(await send({
        type: 'catchup',
        data: {
          success: true,
          // A finished job whose documents did not all fit is still "scraping" here: the client then reads the rest.
          status: complete ? firecrawlStatus(first.status) : 'scraping',
          total: first.total,
          completed: first.completed,
          creditsUsed: first.credits_used,
          expiresAt: opening.status.expires_at,
          data: catchup,
        },
      }))
    )
      return;
    if (complete) {
      closeWith(socket, 1000, { type: 'done' });
      return;
    }
    // Then each new document, until the job has ended and nothing is left to send.
    while (!closed) {
      const next = await page(sent);
      for (const item of next.data) {
        if (!(await send({ type: 'document', data: toFirecrawlDocument(item, baseUrl, id) }))) return;
      }
      sent += next.data.length;
      if (next.data.length === RESULTS_PAGE_SIZE) continue;
      if (firecrawlStatus(next.status) !== 'scraping') {
        closeWith(socket, 1000, { type: 'done' });
        return;
      }
      await sleep(WATCH_LIMITS.pollMs);
    }
  } catch (error) {
    if (error instanceof NotFoundError) {
      closeWith(socket, 1008, { type: 'error', error: 'Job not found' });
      return;
    }
    request.log.warn({ err: { message: (error as Error).message }, job: id }, 'watch failed');
    closeWith(socket, 1011, { type: 'error', error: 'The job could not be read; poll its status instead' });
  } finally {
    release();
  }
}
