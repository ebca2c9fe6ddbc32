// A loopback port that refuses connections, for tests of what a closed port does.
import fs from 'node:fs';
import net from 'node:net';

/**
 * A port on 127.0.0.1 where nothing listens, chosen below the kernel's ephemeral range: listen(0)
 * and outgoing connections only ever take ports from that range, so no test file running beside
 * this one can come to listen on it (a port taken with listen(0) and closed again could be).
 */
export async function refusedPort(): Promise<number> {
  let low = 32768;
  try {
    low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    // Not Linux: the usual start of the range.
  }
  for (let i = 0; i < 50; i++) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    if (await refuses(port)) return port;
  }
  throw new Error('no refused port found below the ephemeral range');
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
