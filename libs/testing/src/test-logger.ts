import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@warden/observability';

export interface CapturedLogger {
  logger: Logger;
  /** Parsed log lines written so far. */
  lines: Record<string, unknown>[];
  /** Everything written, as text (to assert that something never appears). */
  text(): string;
}

/** A service logger that writes into memory instead of the test output. */
export function captureLogger(service: string, level = 'debug'): CapturedLogger {
  const raw: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      const text = chunk.toString();
      raw.push(text);
      for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ service, level, destination }), lines, text: () => raw.join('') };
}
