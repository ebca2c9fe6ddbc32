// The process logger: JSON lines on stdout, with secrets redacted wherever they might appear.
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.authorization',
        'key',
        '*.key',
        'secret',
        '*.secret',
        'webhook_secret',
      ],
      censor: '***',
    },
  });
}
