import { globMatcher } from '@warden/actions';

/** Compiles globs for names (tools, agents, hosts): `mcp__github__*`, `ci-*`. */
export function nameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (!globs.length) return () => false;
  return globMatcher(globs, { dot: true, nocase: true });
}
