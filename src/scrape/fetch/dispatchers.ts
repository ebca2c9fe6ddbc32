// Reusable undici dispatchers: one guarded keep-alive Agent per (resolver, allowPrivate), one ProxyAgent per proxy URL.
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { createGuardedLookup, defaultResolve, type Resolver } from '../../net/address-guard.js';

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

let directAgents = new WeakMap<Resolver, Map<boolean, Agent>>();
const allDirectAgents = new Set<Agent>();
const proxyAgents = new Map<string, ProxyAgent>();

/**
 * The Agent for direct connections. With allowPrivate false, its lookup refuses names that
 * resolve to private addresses, so every connection (and every redirect hop) is checked when
 * the socket is opened; IP literals skip lookup and are checked before the request instead.
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
      connect: { timeout: CONNECT_TIMEOUT_MS, lookup: createGuardedLookup({ allowPrivate, resolve }) },
    });
    byFlag.set(allowPrivate, agent);
    allDirectAgents.add(agent);
  }
  return agent;
}

/**
 * The ProxyAgent for a proxy URL (user:pass@ becomes Proxy-Authorization). Plain-http targets
 * are forwarded with absolute-URI requests (proxyTunnel: false) because many proxies only allow
 * CONNECT to port 443; https targets always use a CONNECT tunnel. The socket to the proxy is not
 * guarded: the proxy's address is the operator's choice.
 */
export function getProxyAgent(proxyUrl: URL): Dispatcher {
  const key = proxyUrl.href;
  let agent = proxyAgents.get(key);
  if (agent) {
    // Re-insert to keep the Map in least-recently-used order for eviction.
    proxyAgents.delete(key);
    proxyAgents.set(key, agent);
    return agent;
  }
  agent = new ProxyAgent({
    uri: key,
    proxyTunnel: false,
    ...AGENT_OPTIONS,
    connect: { timeout: CONNECT_TIMEOUT_MS },
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
