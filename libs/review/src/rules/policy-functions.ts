import { pathMatcher, type PathMatcher } from '@warden/actions';
import { redactText } from '@warden/secrets';

/**
 * The functions a `when` expression has besides CEL's own library, as plain functions: the expressions
 * call them (policy-expression.ts) and the prefilter tries them before an expression runs (policy-prefilter.ts).
 */

const GLOBS = new Map<string, PathMatcher>();
const MAX_CACHED_GLOBS = 1_000;

/** `glob(path, glob)`: whether a path matches a glob as the rules' path conditions match (pathMatcher). */
export function globMatches(path: string, glob: string): boolean {
  let matcher = GLOBS.get(glob);
  if (!matcher) {
    if (GLOBS.size >= MAX_CACHED_GLOBS) GLOBS.clear();
    matcher = pathMatcher([glob]);
    GLOBS.set(glob, matcher);
  }
  return matcher(path);
}

/** `inside(path, dir)`: whether a path is a directory or lies inside it. */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** `secret_like(text)`: whether a text holds something shaped like a secret. */
export function secretLike(text: string): boolean {
  return redactText(text).value !== text;
}
