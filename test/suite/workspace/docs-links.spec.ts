// The repository's Markdown as a reader follows it: every relative link leads to a file that exists, and
// every `#section` to a heading the target has (GitHub's anchors); every requirement id the code cites
// has its section in docs/requirements.md; and the top-level README stays short enough to read.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { WORKSPACE_ROOT } from '@warden/local-runtime';

/** Directories that hold no documentation of the repository: dependencies, build output, caches, local runs. */
const SKIPPED = new Set(['node_modules', 'dist', '.nx', '.git', 'coverage', '.warden']);
const README_MAX_BYTES = 15 * 1024;

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, keep);
    return entry.isFile() && keep(entry.name) ? [path] : [];
  });
}

const markdownFiles = () => filesUnder(WORKSPACE_ROOT, (name) => name.endsWith('.md'));

/** GitHub's anchor for a heading's text: lower case, punctuation and symbols removed, each space a hyphen. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A heading's text as GitHub renders it: links and images as their text, no code marks, HTML or emphasis. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/<[^>]*>/g, '')
    .replace(/\*+/g, '')
    .trim();
}

/** The lines of a Markdown file outside fenced code blocks, with their line numbers. */
function proseLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    } else if (marker) {
      fence = marker;
    } else {
      lines.push({ line, number: index + 1 });
    }
  });
  return lines;
}

/** A line with the text of its code spans blanked out, so that nothing inside them reads as a link or tag. */
const withoutCode = (line: string) => line.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_span, ticks: string, code: string) => ticks + ' '.repeat(code.length) + ticks);

const anchorCache = new Map<string, Set<string>>();

/** The anchors a Markdown file offers: one per heading (repeats numbered as GitHub does), and HTML ids. */
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached) return cached;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(headingText(heading));
      const repeats = seen.get(base) ?? 0;
      seen.set(base, repeats + 1);
      anchors.add(repeats === 0 ? base : `${base}-${repeats}`);
    }
    for (const match of withoutCode(line).matchAll(/<a\s[^>]*?\b(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Every link of a Markdown file: inline links and images, reference definitions, HTML href and src. */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, number } of proseLines(readFileSync(file, 'utf8'))) {
    const prose = withoutCode(line);
    const targets = [
      ...[...prose.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g)].map((m) => m[1]!),
      ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/g)].map((m) => m[1]!),
      ...[...prose.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)="([^"]+)"/g)].map((m) => m[1]!),
    ];
    for (const target of targets) links.push({ file, line: number, target });
  }
  return links;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Why a relative link does not work, or null when it does. */
function brokenBecause(link: Link): string | null {
  if (isExternal(link.target)) return null;
  const hash = link.target.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? link.target : link.target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(link.target.slice(hash + 1));
  const target = path === '' ? link.file : path.startsWith('/') ? join(WORKSPACE_ROOT, path) : resolve(dirname(link.file), path);
  if (!existsSync(target)) return `${relative(WORKSPACE_ROOT, target)} does not exist`;
  if (anchor === null || anchor === '' || extname(target) !== '.md' || statSync(target).isDirectory()) return null;
  return anchorsOf(target).has(anchor) ? null : `no heading of ${relative(WORKSPACE_ROOT, target)} makes #${anchor}`;
}

/** Requirement ids as the code and the READMEs cite them: `seed 002 §6.2`, `FR-11.9`, `FRD-011`. */
const REQUIREMENT_ID = /\bseed [0-9]{3}(?: §[0-9]+(?:\.[0-9]+)*)?|\bFRD?-[0-9]+(?:\.[0-9]+)*/gi;
const REQUIREMENTS = join(WORKSPACE_ROOT, 'docs', 'requirements.md');

describe('GitHub anchors', () => {
  it('are the heading in lower case, punctuation removed, spaces as hyphens', () => {
    expect(slug('Put an agent under Warden')).toBe('put-an-agent-under-warden');
    expect(slug('FR-11.9')).toBe('fr-119');
    expect(slug('Seed 002 §6.2')).toBe('seed-002-62');
    expect(slug('Traces (OpenTelemetry)')).toBe('traces-opentelemetry');
    expect(slug("Claude Code's hooks (phase H)")).toBe('claude-codes-hooks-phase-h');
    expect(slug('warden_partitions and  two spaces')).toBe('warden_partitions-and--two-spaces');
    expect(headingText('`warden eval` and [links](x.md)')).toBe('warden eval and links');
  });
});

describe('Markdown links', () => {
  const files = markdownFiles();

  it('finds the documentation', () => {
    const found = files.map((file) => relative(WORKSPACE_ROOT, file));
    expect(found).toEqual(expect.arrayContaining(['README.md', 'docs/benchmarks.md', 'docs/requirements.md', 'apps/gate/README.md', 'deploy/README.md']));
    expect(found.some((file) => file.includes('node_modules'))).toBe(false);
  });

  it('lead to files that exist and to headings the target has', () => {
    const broken = files
      .flatMap(linksOf)
      .map((link) => ({ link, reason: brokenBecause(link) }))
      .filter(({ reason }) => reason !== null)
      .map(({ link, reason }) => `${relative(WORKSPACE_ROOT, link.file)}:${link.line}: (${link.target}) ${reason}`);
    expect(broken).toEqual([]);
  });

  it('are checked: a missing file and a missing heading are both reported', () => {
    const readme = join(WORKSPACE_ROOT, 'README.md');
    expect(brokenBecause({ file: readme, line: 1, target: 'docs/no-such-file.md' })).toBe('docs/no-such-file.md does not exist');
    expect(brokenBecause({ file: readme, line: 1, target: 'docs/benchmarks.md#no-such-section' })).toBe('no heading of docs/benchmarks.md makes #no-such-section');
    expect(brokenBecause({ file: readme, line: 1, target: '#put-an-agent-under-warden' })).toBeNull();
    expect(brokenBecause({ file: readme, line: 1, target: 'https://example.com/missing.md#anything' })).toBeNull();
  });
});

describe('requirement ids', () => {
  it('each have their section in docs/requirements.md', () => {
    const anchors = anchorsOf(REQUIREMENTS);
    const sources = ['apps', 'libs', 'test', 'deploy', 'examples', 'tools', 'docs'].flatMap((dir) =>
      filesUnder(join(WORKSPACE_ROOT, dir), (name) => /\.(ts|mjs|md|ya?ml|json|toml)$/.test(name)),
    );
    const cited = new Map<string, string>();
    for (const file of [join(WORKSPACE_ROOT, 'README.md'), ...sources]) {
      if (file.includes(join('test', 'bench', 'results'))) continue;
      for (const [id] of readFileSync(file, 'utf8').matchAll(REQUIREMENT_ID)) cited.set(slug(id), `${id} (${relative(WORKSPACE_ROOT, file)})`);
    }
    expect(cited.size).toBeGreaterThan(30);
    const missing = [...cited].filter(([anchor]) => !anchors.has(anchor)).map(([anchor, where]) => `#${anchor}: ${where}`);
    expect(missing).toEqual([]);
  });
});

describe('README.md', () => {
  it(`is at most ${README_MAX_BYTES / 1024} KB: benchmark runs and analyses go to docs/benchmarks.md`, () => {
    expect(statSync(join(WORKSPACE_ROOT, 'README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });
});
