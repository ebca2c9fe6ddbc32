// A local forward proxy per guarded render: Chromium sends every request through it, and it connects only to checked
// addresses.
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
} from 'node:http';
import { connect as netConnect, isIP, type AddressInfo, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import {
  BlockedAddressError,
  PROXY_GUARD_REMEDY,
  PROXY_ROLE,
  resolvePublicAddresses,
  type Resolver,
} from '../net/address-guard.js';

/**
 * Why this exists: request interception sees requests, not connections. Chromium resolves names
 * itself after our check (DNS rebinding), Playwright's routing does not see redirect hops, and
 * service workers, WebSockets and browser-initiated requests bypass interception. Through this
 * proxy Chromium resolves nothing (an HTTP proxy resolves for it): we resolve once, check every
 * address, and connect to exactly the address we checked.
 */

export type EgressFailureCode =
  'BLOCKED_ADDRESS' | 'DNS_FAILURE' | 'CONNECTION_REFUSED' | 'NETWORK_ERROR' | 'PROXY_ERROR';

export interface EgressFailure {
  host: string;
  code: EgressFailureCode;
  message: string;
}

export interface EgressUpstream {
  /** http(s)://host:port of the user's proxy. */
  url: URL;
  /** `Basic ...` for the user's proxy, when it has credentials. */
  authorization?: string;
  /**
   * The proxy's own address may be private (a proxy the operator chose). Otherwise it is resolved
   * here, refused when any address is private, and dialled by the address that was checked.
   */
  allowPrivate?: boolean;
}

export interface EgressProxyOptions {
  /** Name resolution; default DNS. */
  resolve?: Resolver;
  /** Test hook: where a checked address is really dialled (a "public" test address leads to a local server). */
  dial?: (address: string, port: number) => { host: string; port: number };
  /**
   * The render's own proxy. Targets are then checked here (resolved by us, private answers refused)
   * and reached through it; that proxy resolves them again, which is the accepted limit of proxying.
   */
  upstream?: EgressUpstream;
  /** ALLOW_LOCAL_TARGETS: targets are not refused (the proxy is here only to guard the upstream proxy). */
  allowPrivateTargets?: boolean;
}

/** Where to dial the upstream proxy: a checked address (or its name, when it may be private). */
interface UpstreamEndpoint {
  host: string;
  port: number;
  /** TLS server name of an https proxy; undefined for an IP literal. */
  servername: string | undefined;
}

/** Header on the answers this proxy makes up itself (refusals, failures), so a render can tell them from a site's. */
export const EGRESS_HEADER = 'x-crawlservice-egress';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);
const MAX_FAILURES = 64;
const CONNECT_TIMEOUT_MS = 30_000;

function errnoCode(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : 'ERROR';
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  if (!match) return undefined;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export class EgressProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly failures = new Map<string, EgressFailure>();
  private readonly agent = new HttpAgent({ keepAlive: true, maxSockets: 16 });
  private port = 0;

  private constructor(private readonly options: EgressProxyOptions) {
    this.server = createServer((req, res) => {
      this.forward(req).then(
        (upstream) => {
          const headers: string[] = [];
          for (let i = 0; i + 1 < upstream.rawHeaders.length; i += 2) {
            if (!HOP_BY_HOP.has(upstream.rawHeaders[i]!.toLowerCase()))
              headers.push(upstream.rawHeaders[i]!, upstream.rawHeaders[i + 1]!);
          }
          res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
          upstream.pipe(res);
          upstream.on('error', () => res.destroy());
        },
        (err: unknown) => {
          const failure = isFailure(err) ? err : this.record('', 'NETWORK_ERROR', 'The request could not be forwarded');
          res.writeHead(failure.code === 'BLOCKED_ADDRESS' ? 403 : 502, {
            [EGRESS_HEADER]: failure.code,
            'content-type': 'text/plain',
            connection: 'close',
          });
          res.end(failure.message);
        },
      );
    });
    this.server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => this.tunnel(req, client, head));
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('clientError', (_err, socket) => socket.destroy());
  }

  static async start(options: EgressProxyOptions = {}): Promise<EgressProxy> {
    const proxy = new EgressProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.port = (proxy.server.address() as AddressInfo).port;
    return proxy;
  }

  /** `http://127.0.0.1:<port>`, for Chromium's per-context proxy setting. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Why the last request to this URL's host failed here, if it did. */
  failureFor(url: string): EgressFailure | undefined {
    try {
      return this.failures.get(new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase());
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    this.agent.destroy();
    for (const socket of this.sockets) socket.destroy();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(host: string, code: EgressFailureCode, message: string): EgressFailure {
    const failure = { host, code, message };
    const key = host.toLowerCase();
    this.failures.delete(key);
    this.failures.set(key, failure);
    if (this.failures.size > MAX_FAILURES) this.failures.delete(this.failures.keys().next().value as string);
    return failure;
  }

  /** Resolves and checks `host`; the address to connect to, or the recorded failure. */
  private async check(host: string, port: number): Promise<{ host: string; port: number }> {
    let addresses;
    try {
      addresses = await resolvePublicAddresses(host, {
        allowPrivate: this.options.allowPrivateTargets ?? false,
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      });
    } catch (err) {
      if (err instanceof BlockedAddressError) throw this.record(host, 'BLOCKED_ADDRESS', err.message);
      throw this.record(host, 'DNS_FAILURE', `Could not resolve ${host} (${errnoCode(err)})`);
    }
    if (this.options.upstream) return { host, port };
    const address = addresses[0]!.address;
    return this.options.dial ? this.options.dial(address, port) : { host: address, port };
  }

  /**
   * The upstream proxy's address for a request to `targetHost` (failures are recorded under it).
   * A proxy named by the request goes through the address guard like any destination: a request
   * must not reach loopback or the private network by naming it as its proxy.
   */
  private async upstreamEndpoint(upstream: EgressUpstream, targetHost: string): Promise<UpstreamEndpoint> {
    const name = upstream.url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(upstream.url.port || (upstream.url.protocol === 'https:' ? 443 : 80));
    const servername = isIP(name) === 0 ? name : undefined;
    if (upstream.allowPrivate) return { host: name, port, servername };
    let addresses;
    try {
      addresses = await resolvePublicAddresses(upstream.url.hostname, {
        allowPrivate: false,
        role: PROXY_ROLE,
        remedy: PROXY_GUARD_REMEDY,
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      });
    } catch (err) {
      if (err instanceof BlockedAddressError) throw this.record(targetHost, 'BLOCKED_ADDRESS', err.message);
      throw this.record(
        targetHost,
        'PROXY_ERROR',
        `Could not resolve the proxy ${upstream.url.host} (${errnoCode(err)})`,
      );
    }
    const address = addresses[0]!.address;
    const dest = this.options.dial ? this.options.dial(address, port) : { host: address, port };
    return { ...dest, servername };
  }

  private connectFailure(host: string, err: unknown): EgressFailure {
    const code = errnoCode(err);
    if (this.options.upstream)
      return this.record(host, 'PROXY_ERROR', `Could not reach the proxy for ${host} (${code})`);
    if (code === 'ECONNREFUSED') return this.record(host, 'CONNECTION_REFUSED', `${host} refused the connection`);
    return this.record(host, 'NETWORK_ERROR', `Could not connect to ${host} (${code})`);
  }

  /** An absolute-URI request (plain http): checked, then sent on to the checked address or the upstream proxy. */
  private async forward(req: IncomingMessage): Promise<IncomingMessage> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      throw this.record('', 'NETWORK_ERROR', 'Not an absolute URL');
    }
    if (target.protocol !== 'http:')
      throw this.record(target.hostname, 'NETWORK_ERROR', `Scheme ${target.protocol} is not proxied`);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const dest = await this.check(host, Number(target.port || 80));
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    const upstream = this.options.upstream;
    const endpoint = upstream ? await this.upstreamEndpoint(upstream, host) : undefined;
    const options =
      upstream && endpoint
        ? {
            host: endpoint.host,
            port: endpoint.port,
            path: target.href,
            headers: {
              ...headers,
              ...(upstream.authorization ? { 'proxy-authorization': upstream.authorization } : {}),
            },
          }
        : { host: dest.host, port: dest.port, path: `${target.pathname}${target.search}`, headers };
    return new Promise<IncomingMessage>((resolve, reject) => {
      const out = httpRequest(
        { ...options, method: req.method, agent: this.agent, setHost: false, timeout: CONNECT_TIMEOUT_MS },
        resolve,
      );
      out.on('timeout', () => out.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      out.on('error', (err) => reject(this.connectFailure(host, err)));
      req.pipe(out);
    });
  }

  /** A CONNECT tunnel (https, wss): checked, then opened to the checked address or through the upstream proxy. */
  private tunnel(req: IncomingMessage, client: Socket, head: Buffer): void {
    const refuse = (failure: EgressFailure): void => {
      const status = failure.code === 'BLOCKED_ADDRESS' ? '403 Forbidden' : '502 Bad Gateway';
      client.end(`HTTP/1.1 ${status}\r\n${EGRESS_HEADER}: ${failure.code}\r\nContent-Length: 0\r\n\r\n`);
    };
    const target = splitHostPort(req.url ?? '', 443);
    if (!target) {
      refuse(this.record('', 'NETWORK_ERROR', 'Bad CONNECT target'));
      return;
    }
    this.check(target.host, target.port).then(
      (dest) => {
        const upstream = this.options.upstream;
        const socket = upstream
          ? this.openThroughUpstream(upstream, req.url ?? '')
          : this.openDirect(dest.host, dest.port);
        socket.then(
          (server) => {
            client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
            if (head.length > 0) server.write(head);
            server.pipe(client);
            client.pipe(server);
            server.on('error', () => client.destroy());
            client.on('error', () => server.destroy());
            client.on('close', () => server.destroy());
            server.on('close', () => client.destroy());
          },
          (err: unknown) => refuse(isFailure(err) ? err : this.connectFailure(target.host, err)),
        );
      },
      (err: unknown) =>
        refuse(isFailure(err) ? err : this.record(target.host, 'NETWORK_ERROR', 'The tunnel could not be opened')),
    );
  }

  private openDirect(host: string, port: number): Promise<Socket> {
    return new Promise<Socket>((resolve, reject) => {
      const socket = netConnect({ host, port, timeout: CONNECT_TIMEOUT_MS });
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.once('connect', () => {
        socket.setTimeout(0);
        resolve(socket);
      });
      socket.once('timeout', () => socket.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      socket.once('error', reject);
    });
  }

  /** A CONNECT through the user's proxy; resolves once it answered 200. */
  private async openThroughUpstream(upstream: EgressUpstream, authority: string): Promise<Socket> {
    const targetHost = splitHostPort(authority, 443)?.host ?? authority;
    const { host, port, servername } = await this.upstreamEndpoint(upstream, targetHost);
    return new Promise<Socket>((resolve, reject) => {
      const socket: Socket =
        upstream.url.protocol === 'https:'
          ? tlsConnect({ host, port, ...(servername ? { servername } : {}) })
          : netConnect({ host, port });
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
        socket.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      );
      socket.once('error', reject);
      socket.once(upstream.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        const auth = upstream.authorization ? `Proxy-Authorization: ${upstream.authorization}\r\n` : '';
        socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
      });
      let buffered = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) {
          if (buffered.length > 16_384) socket.destroy(new Error('proxy answer too long'));
          return;
        }
        socket.off('data', onData);
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(buffered.subarray(0, end).toString('latin1'))?.[1];
        if (status !== '200') {
          socket.destroy();
          reject(
            this.record(
              targetHost,
              'PROXY_ERROR',
              `The proxy refused the tunnel to ${authority} (${status ?? 'no status'})`,
            ),
          );
          return;
        }
        socket.setTimeout(0);
        const rest = buffered.subarray(end + 4);
        if (rest.length > 0) socket.unshift(rest);
        resolve(socket);
      };
      socket.on('data', onData);
    });
  }
}

function isFailure(value: unknown): value is EgressFailure {
  return typeof value === 'object' && value !== null && 'code' in value && 'host' in value && 'message' in value;
}
