// Reusable undici dispatchers: one guarded keep-alive Agent per (resolver, allowPrivate), one ProxyAgent per (proxy
// URL, guard).
import { Agent, Client, Pool, ProxyAgent, type Dispatcher } from 'undici';
import {
  boundedConnector,
  defaultResolve,
  guardedConnector,
  PROXY_GUARD_REMEDY,
  PROXY_ROLE,
  type Connector,
  type Resolver,
} from '../net/address-guard.js';

// Crawls fetch hundreds of pages per second, often from the same hosts: building a dispatcher
// per request would throw away keep-alive sockets and TLS sessions.
const AGENT_OPTIONS = {
  keepAliveTimeout: 4_000,
  keepAliveMaxTimeout: 60_000,
  connections: 64,
  pipelining: 1,
  // Real sites send large Set-Cookie/CSP headers; Node's default 16 KiB fails some of them.
  maxHeaderSize: 64 * 1024,
} as const;

const CONNECT_TIMEOUT_MS = 15_000;
const MAX_PROXY_AGENTS = 32;
/**
 * Failed connection attempts in a row after which a client is destroyed (its requests fail). undici fails the queued
 * requests on the first ordinary connect error, so this only
 * triggers when something makes it dial again and again (see boundedConnector).
 */
const MAX_CONNECT_FAILURES = 3;

let directAgents = new WeakMap<Resolver, Map<boolean, Agent>>();
const allDirectAgents = new Set<Agent>();
const proxyAgents = new Map<string, ProxyAgent>();
const resolverIds = new WeakMap<Resolver, number>();
let nextResolverId = 1;

/**
 * A pool for one origin whose clients each have a bounded connector. A client that gives up is
 * destroyed, which fails its requests and ends its connection attempts. (It is the client that
 * must go: undici's pool drops a client from its list on a connection error, so a client stuck
 * redialling is out of the pool's reach.)
 */
function boundedPool(origin: string | URL, options: object, connect: Connector, tunnel: boolean): Pool {
  return new Pool(origin, {
    ...options,
    connect,
    factory: (clientOrigin: string | URL, clientOptions: object) => {
      const holder: { client?: Client } = {};
      const bounded = boundedConnector((clientOptions as { connect: Connector }).connect, {
        attemptTimeoutMs: CONNECT_TIMEOUT_MS,
        maxFailures: MAX_CONNECT_FAILURES,
        tunnel,
        onGiveUp: (err) => {
          // Not from inside the connect callback: undici is in the middle of handling it.
          setImmediate(() => void holder.client?.destroy(err).catch(() => undefined));
        },
      });
      holder.client = new Client(clientOrigin, { ...clientOptions, connect: bounded });
      return holder.client;
    },
  });
}

/**
 * The Agent for direct connections. With allowPrivate false, its connector refuses private
 * addresses when the socket is opened (names through the guarded lookup, literals checked
 * directly), so every connection and every redirect hop is checked at connect time.
 */
export function getDirectAgent(allowPrivate: boolean, resolve: Resolver = defaultResolve): Dispatcher {
  let byFlag = directAgents.get(resolve);
  if (!byFlag) {
    byFlag = new Map();
    directAgents.set(resolve, byFlag);
  }
  let agent = byFlag.get(allowPrivate);
  if (!agent) {
    agent = new Agent({
      ...AGENT_OPTIONS,
      factory: (origin, options) =>
        boundedPool(
          origin,
          options,
          guardedConnector({ allowPrivate, resolve }, { timeout: CONNECT_TIMEOUT_MS }),
          false,
        ),
    });
    byFlag.set(allowPrivate, agent);
    allDirectAgents.add(agent);
  }
  return agent;
}

export interface ProxyGuard {
  /** The proxy's own address may be private (the operator chose it); false applies the address guard to it. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

function resolverId(resolve: Resolver | undefined): number {
  if (!resolve) return 0;
  let id = resolverIds.get(resolve);
  if (id === undefined) {
    id = nextResolverId++;
    resolverIds.set(resolve, id);
  }
  return id;
}

/**
 * The ProxyAgent for a proxy URL (user:pass@ becomes Proxy-Authorization). Plain-http targets
 * are forwarded with absolute-URI requests (proxyTunnel: false) because many proxies only allow
 * CONNECT to port 443; https targets always use a CONNECT tunnel.
 *
 * Unless `guard.allowPrivate`, the socket to the proxy goes through the address guard when it is
 * opened, like any target's: a request cannot reach loopback or the private network by naming it
 * as its proxy. Every pool's connector is bounded (boundedConnector): a proxy that drops or
 * botches CONNECT fails the request instead of being redialled in a loop.
 */
export function getProxyAgent(proxyUrl: URL, guard: ProxyGuard): Dispatcher {
  const key = `${guard.allowPrivate ? 'open' : 'guarded'} ${resolverId(guard.resolve)} ${proxyUrl.href}`;
  let agent = proxyAgents.get(key);
  if (agent) {
    // Re-insert to keep the Map in least-recently-used order for eviction.
    proxyAgents.delete(key);
    proxyAgents.set(key, agent);
    return agent;
  }
  const href = proxyUrl.href;
  const toProxy = (): Connector =>
    guardedConnector(
      {
        allowPrivate: guard.allowPrivate,
        resolve: guard.resolve ?? defaultResolve,
        role: PROXY_ROLE,
        remedy: PROXY_GUARD_REMEDY,
      },
      { timeout: CONNECT_TIMEOUT_MS },
    );
  agent = new ProxyAgent({
    uri: href,
    proxyTunnel: false,
    ...AGENT_OPTIONS,
    // The client that sends CONNECT to the proxy; its answer must come within the connect timeout.
    clientFactory: (origin) => boundedPool(origin, { headersTimeout: CONNECT_TIMEOUT_MS }, toProxy(), false),
    // Called with the proxy's own URL for the pool of absolute-URI requests (plain-http targets),
    // and with each target origin for a pool whose connector is ProxyAgent's tunnel (CONNECT).
    factory: (origin, options) =>
      String(origin) === href
        ? boundedPool(origin, AGENT_OPTIONS, toProxy(), false)
        : boundedPool(origin, options, (options as { connect: Connector }).connect, true),
  });
  proxyAgents.set(key, agent);
  if (proxyAgents.size > MAX_PROXY_AGENTS) {
    const [oldestKey, oldest] = proxyAgents.entries().next().value as [string, ProxyAgent];
    proxyAgents.delete(oldestKey);
    // close() lets requests in flight finish before the sockets go.
    void oldest.close().catch(() => undefined);
  }
  return agent;
}

/** Closes every cached dispatcher (process shutdown, end of a test file). */
export async function closeDispatchers(): Promise<void> {
  const agents: Dispatcher[] = [...allDirectAgents, ...proxyAgents.values()];
  allDirectAgents.clear();
  directAgents = new WeakMap();
  proxyAgents.clear();
  await Promise.allSettled(agents.map((a) => a.close()));
}
