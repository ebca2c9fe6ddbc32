// Reusable undici Agents for webhook deliveries, guarded against private addresses at connect time.
import { Agent } from 'undici';
import { createGuardedLookup, defaultResolve, type Resolver } from '../../net/address-guard.js';

/** Setting named in refusal messages, so an operator knows what lifts the refusal. */
export const WEBHOOK_GUARD_SETTING = 'ALLOW_LOCAL_WEBHOOKS';

// Many deliveries per second go to a handful of receivers: keep-alive sockets avoid a TCP (and
// TLS) handshake per delivery. The idle timeout stays under the 5 s that Node and many proxies
// use, so we close an idle socket before the receiver does and rarely write into a dying one.
// One request per connection at a time: a receiver slow on one delivery must not delay the next.
// 32 connections per origin bound what one subscription's burst can open.
const AGENT_OPTIONS = {
  keepAliveTimeout: 4_000,
  keepAliveMaxTimeout: 60_000,
  pipelining: 1,
  connections: 32,
} as const;

// TCP/TLS set-up alone; the attempt's own deadline (timeout_seconds, up to 60 s) still applies on top.
const CONNECT_TIMEOUT_MS = 10_000;
// How long shutdown lets requests in flight finish before their sockets are destroyed.
const CLOSE_GRACE_MS = 2_000;

let agents = new WeakMap<Resolver, Map<boolean, Agent>>();
const allAgents = new Set<Agent>();

/**
 * The Agent for one guard setting (and one resolver, which only tests change). With allowPrivate
 * false its lookup resolves the name, refuses it if ANY address is private, and hands the socket
 * only the addresses it checked, so a DNS answer cannot change between check and connect.
 * IP literals skip lookup: the caller checks them before sending.
 */
export function getWebhookAgent(allowPrivate: boolean, resolve: Resolver = defaultResolve): Agent {
  let byFlag = agents.get(resolve);
  if (!byFlag) {
    byFlag = new Map();
    agents.set(resolve, byFlag);
  }
  let agent = byFlag.get(allowPrivate);
  if (!agent) {
    agent = new Agent({
      ...AGENT_OPTIONS,
      connect: {
        timeout: CONNECT_TIMEOUT_MS,
        lookup: createGuardedLookup({ allowPrivate, resolve, setting: WEBHOOK_GUARD_SETTING }),
      },
    });
    byFlag.set(allowPrivate, agent);
    allAgents.add(agent);
  }
  return agent;
}

/** Closes every cached Agent; requests still in flight after a short grace are cut. */
export async function closeWebhookAgents(): Promise<void> {
  const closing = [...allAgents];
  allAgents.clear();
  agents = new WeakMap();
  await Promise.allSettled(
    closing.map(async (agent) => {
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), CLOSE_GRACE_MS);
      });
      const closed = agent.close().then(
        () => 'closed' as const,
        () => 'closed' as const,
      );
      try {
        if ((await Promise.race([closed, graceOver])) === 'timeout') await agent.destroy();
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
