// GET /health (readiness: the store answers) and GET /health/live (liveness: the process answers).
import type { FastifyInstance } from 'fastify';
import { STORE_RETRY_AFTER_S } from './errors.js';

/** A probe of the store must answer within this, or the store counts as unreachable. */
const STORE_PROBE_TIMEOUT_MS = 2000;

async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// Listed in the OpenAPI document, without a key (security: []). No response schema: Fastify would
// serialize through it and drop fields it does not name.
const READINESS_DOC = {
  tags: ['health'],
  summary: 'Readiness: 200 {"success": true, "status": "ok"} when the database answers within 2 s',
  description:
    'Else 503 {"success": false, "status": "unavailable", "code": "DATABASE_UNAVAILABLE", "checks": {"database": "unreachable"}} with Retry-After. No key needed.',
  security: [],
};
const LIVENESS_DOC = {
  tags: ['health'],
  summary: 'Liveness: 200 {"success": true, "status": "ok"} while the process serves HTTP, whatever the database does',
  description: 'No key needed. Use it to decide on restarts; use /health to decide on traffic.',
  security: [],
};

/** `probeStore` runs a trivial query; it may throw or hang while the database is out of reach. */
export function registerHealth(app: FastifyInstance, probeStore: () => Promise<unknown>): void {
  app.get('/health/live', { schema: LIVENESS_DOC, config: { public: true } }, async () => ({
    success: true,
    status: 'ok',
  }));
  app.get('/health', { schema: READINESS_DOC, config: { public: true } }, async (_request, reply) => {
    if (await within(STORE_PROBE_TIMEOUT_MS, probeStore())) return { success: true, status: 'ok' };
    void reply.status(503).header('retry-after', String(STORE_RETRY_AFTER_S));
    return {
      success: false,
      status: 'unavailable',
      error: 'Service unavailable',
      code: 'DATABASE_UNAVAILABLE',
      message: 'The database is unreachable',
      checks: { database: 'unreachable' },
    };
  });
}
