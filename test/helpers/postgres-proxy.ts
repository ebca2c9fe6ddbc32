// The test PostgreSQL behind a TCP proxy the test controls, and the URL that leads the service through it.
import { POSTGRES_URL } from './databases.js';
import { type TcpProxy, startTcpProxy } from '../fixtures/tcp-proxy.js';

/** A proxy in front of the test database (DATABASE_URL_TEST). */
export function startPostgresProxy(): Promise<TcpProxy> {
  const target = new URL(POSTGRES_URL);
  return startTcpProxy(Number(target.port || 5432), target.hostname);
}

/** The test database's URL through `proxy`; with `schema`, every session of the service is confined to it. */
export function postgresUrlThrough(proxy: TcpProxy, schema?: string): string {
  const url = new URL(POSTGRES_URL);
  url.host = `${proxy.host}:${proxy.port}`;
  if (schema) url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}
