import { out } from '../output.js';

/** Why the suite was asked to stop: the signal that asked. */
export class SuiteStopRequested extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.name = 'SuiteStopRequested';
  }
}

/**
 * The stop of a suite run by this process, from the moment it starts: the first SIGINT, SIGTERM or
 * SIGHUP aborts `signal` (a start under way is called off and what it started is stopped; a running
 * suite is stopped in order); a second one ends every process at once (the suite's exit handler kills
 * its children) and exits 130.
 */
export class SuiteLifetime {
  private readonly controller = new AbortController();
  private readonly listener = (signal: NodeJS.Signals) => this.onSignal(signal);

  constructor(private readonly signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    for (const name of signals) process.on(name, this.listener);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Resolves when a stop is asked for. */
  stopRequested(): Promise<void> {
    if (this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** No more signals handled here (the process is about to exit). */
  release(): void {
    for (const name of this.signals) process.removeListener(name, this.listener);
  }

  private onSignal(signal: NodeJS.Signals): void {
    if (!this.signal.aborted) {
      out.line(`\nStopping Warden (${signal}; Ctrl-C again to force)...`);
      this.controller.abort(new SuiteStopRequested(signal));
      return;
    }
    out.warn('forced stop');
    process.exit(130);
  }
}
