import { Writable } from 'node:stream';
import { lazyMessageLogger } from './log-context.js';
import { createLogger } from './logger.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('writes the trace and session of the message a line is about', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: 'reviewer', destination });
    lazyMessageLogger(logger, { trace_id: 'trace-1', session_id: 'sess-1' })().info('reviewed');
    logger.info('idle');
    expect(lines[0]).toMatchObject({ service: 'reviewer', trace_id: 'trace-1', session_id: 'sess-1', msg: 'reviewed' });
    expect(lines[1]).not.toHaveProperty('trace_id');
  });

  it('never writes tool inputs or credentials', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ service: 'gate', destination });
    logger.info({ payload: { input: { command: 'PGPASSWORD=x psql' } }, password: 'hunter2' }, 'handled');
    const line = JSON.stringify(lines[0]);
    expect(line).not.toContain('PGPASSWORD');
    expect(line).not.toContain('hunter2');
  });
});
