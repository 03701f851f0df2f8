import { readFileSync } from 'node:fs';

/** One node of a V8 `.cpuprofile` (what `node --cpu-prof` writes). */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  /** Sampled time the process was running JavaScript or native code (idle excluded). */
  busyMs: number;
  idleMs: number;
  /** Self time by where the code lives: a package, a Warden library or app, Node's own code. */
  byPlace: ProfileShare[];
  /** Self time by function. */
  byFunction: ProfileShare[];
}

/** Where a function's code lives, coarse enough to say what a millisecond is spent on. */
export function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const workspace = /\/(apps|libs)\/([^/]+)\//.exec(url);
  if (workspace) return `${workspace[1]}/${workspace[2]}`;
  if (url.startsWith('node:')) return 'node';
  return url;
}

export function summariseProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const name = `${functionName || '(anonymous)'} ${url ? `${place}:${lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const shares = (table: Map<string, number>) =>
    [...table]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: Math.round((us / busyUs) * 1000) / 1000 }));
  return { busyMs: Math.round(busyUs / 1000), idleMs: Math.round(idleUs / 1000), byPlace: shares(places), byFunction: shares(functions) };
}

function print(path: string, summary: ProfileSummary): void {
  const row = (s: ProfileShare) => `  ${(s.share * 100).toFixed(1).padStart(5)}%  ${String(s.ms).padStart(9)} ms  ${s.name}`;
  console.log(`${path}: busy ${summary.busyMs} ms, idle ${summary.idleMs} ms`);
  console.log(' self time by place:');
  for (const s of summary.byPlace) console.log(row(s));
  console.log(' self time by function:');
  for (const s of summary.byFunction) console.log(row(s));
}

const HELP = `Summarises CPU profiles written by \`node test/bench/dist/main.js --profile DIR\` (or node --cpu-prof):
self time by place (package, Warden library or app, Node) and by function.

Usage: node test/bench/dist/profile-summary.js [--top N] FILE.cpuprofile...`;

async function main(args: string[]): Promise<number> {
  if (args.length === 0 || args.includes('-h') || args.includes('--help')) {
    console.log(HELP);
    return args.length === 0 ? 2 : 0;
  }
  let top = 25;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--top') top = Number(args[++i]);
    else files.push(args[i]!);
  }
  if (!Number.isInteger(top) || top < 1) {
    console.error('--top takes a positive whole number');
    return 2;
  }
  for (const file of files) print(file, summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top));
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
