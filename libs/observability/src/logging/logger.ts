import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

export interface LoggerSettings {
  service: string;
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read them. */
  destination?: pino.DestinationStream;
}

/** Field names whose values never reach a log line, whatever object they sit in. */
const REDACTED_PATHS = [
  'password',
  'pass',
  'token',
  'secret',
  'authorization',
  '*.password',
  '*.pass',
  '*.token',
  '*.secret',
  '*.authorization',
  'input',
  '*.input',
  'payload.input',
];

/** A pino logger for a service. Lines about a message come from its child (see lazyMessageLogger). */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: { service: settings.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    formatters: { level: (label) => ({ level: label }) },
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
