import type { PayloadOf } from '@warden/contracts';

/** The paths a session is expected to touch: the configured globs, or everything under its working directory. */
export function expectedPathsFor(cwd: string, configured?: string[]): string[] {
  return configured?.length ? configured : [`${cwd.replace(/\/+$/, '')}/**`];
}

/** What a project may declare itself instead of what is read from the session. */
export interface DeclarationSettings {
  expectedPaths?: string[];
  goal?: string;
  environment?: string;
}

/**
 * The session.started an agent's session is declared with: its working directory as the expected
 * scope (unless configured), and the user's first request as the goal. `warden replay` declares a
 * replayed recording the same way, so both are reviewed against the same context.
 */
export function sessionDeclaration(options: {
  agentKind: string;
  cwd: string;
  goal?: string;
  settings?: DeclarationSettings;
  model?: string;
}): PayloadOf<'session.started'> {
  const goal = options.settings?.goal ?? options.goal;
  return {
    context: { cwd: options.cwd, expected_paths: expectedPathsFor(options.cwd, options.settings?.expectedPaths), ...(goal ? { goal } : {}) },
    agent_kind: options.agentKind,
    ...(options.model ? { model: options.model } : {}),
    ...(options.settings?.environment ? { environment: options.settings.environment } : {}),
  };
}
