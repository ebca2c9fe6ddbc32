// The signal of a request's work: aborted when the client hangs up, so its fetches stop instead of running on.
import type { FastifyReply } from 'fastify';

export function hangUpSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
