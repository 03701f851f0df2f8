import { pathMatcher, type PathMatcher } from '@warden/actions';

const compiledMatchers = new WeakMap<readonly string[], PathMatcher>();

/** The matcher of a settings list of globs (ignored paths, secret paths), compiled once per list. */
export function compiledMatcher(globs: readonly string[]): PathMatcher {
  let match = compiledMatchers.get(globs);
  if (!match) compiledMatchers.set(globs, (match = pathMatcher(globs)));
  return match;
}
