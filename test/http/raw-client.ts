// Speaks HTTP/1.1 over a bare socket, so tests can send what real clients never would (bad request
// lines, half bodies, unnormalized paths) and see exactly what the service writes back.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting to a complete answer (or to the close, when none came). */
  elapsedMs: number;
}

export interface RawOptions {
  /** Give up (destroy the socket) after this long; the result then has status 0. */
  giveUpMs?: number;
  /** Written one after another, this far apart (the last one is never followed by an end). */
  gapMs?: number;
  /** The answer has no body whatever its Content-Length says (an answer to HEAD). */
  head?: boolean;
  /** Half-close the connection after the last chunk (the client sends nothing more). */
  end?: boolean;
}

function parse(text: string, head = false): Omit<RawResponse, 'elapsedMs'> | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  // `text` holds the bytes as latin1, one character each.
  const bytes = Buffer.from(text.slice(end + 4), 'latin1');
  const length = headers['content-length'];
  if (!head && length !== undefined && bytes.length < Number(length)) return undefined;
  return { status, headers, body: (length === undefined ? bytes : bytes.subarray(0, Number(length))).toString('utf8') };
}

/** Connects, writes `chunks`, and resolves with the first complete answer, or what there was at close. */
export function rawExchange(
  port: number,
  chunks: string | Buffer | Array<string | Buffer>,
  options: RawOptions = {},
): Promise<RawResponse> {
  const parts = Array.isArray(chunks) ? chunks : [chunks];
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let done = false;
    const finish = (result: Omit<RawResponse, 'elapsedMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...result, elapsedMs: Date.now() - started });
    };
    const timer = setTimeout(() => finish({ status: 0, headers: {}, body: received }), options.giveUpMs ?? 10_000);
    socket.on('data', (data) => {
      received += data.toString('latin1');
      const parsed = parse(received, options.head);
      if (parsed) finish(parsed);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(parse(received, options.head) ?? { status: 0, headers: {}, body: received }));
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0 && options.gapMs) await new Promise((r) => setTimeout(r, options.gapMs));
        if (socket.destroyed) return;
        socket.write(part);
      }
      if (options.end) socket.end();
    });
  });
}

/** One request for a raw request target, exactly as given; a body is sent as JSON. */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const headers = { ...options.headers };
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(options.body));
  }
  const lines = [
    `${method} ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return rawExchange(port, `${lines.join('\r\n')}\r\n\r\n${options.body ?? ''}`, { head: method === 'HEAD' });
}

/** A GET (or another method without a body) for a raw request target. */
export function rawGet(
  port: number,
  target: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return rawRequest(port, method, target, { headers });
}
