import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. Secrets never reach a log line: the paths below are redacted wherever they appear. */
export function createLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: [
        'authorization',
        'headers.authorization',
        'req.headers.authorization',
        '*.secret',
        'secret',
        // Webhook secrets inside event data or commands (`data.secret`, `command.data.secret`) and signatures.
        '*.*.secret',
        '*.*.*.secret',
        'headers["x-service-signature"]',
        '*.headers["x-service-signature"]',
        'key',
        '*.key',
        'api_key',
        '*.api_key',
      ],
      censor: '[redacted]',
    },
  });
}
