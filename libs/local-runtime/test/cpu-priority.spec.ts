import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyCpuPriority, BACKGROUND_NICENESS, cpuPriorityOf } from '../src/cpu-priority.js';
import { WORKSPACE_ROOT } from '../src/service-process.js';

const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

describe('cpuPriorityOf', () => {
  let root: string;
  const app = (manifest: object) => {
    mkdirSync(join(root, 'apps', 'svc'), { recursive: true });
    writeFileSync(join(root, 'apps', 'svc', 'package.json'), JSON.stringify(manifest));
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cpu-priority-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads what an app declares, the decision path when it declares nothing, and refuses anything else naming the file', () => {
    app({ cpuPriority: 'background' });
    expect(cpuPriorityOf(root, 'svc')).toBe('background');
    app({ name: 'svc' });
    expect(cpuPriorityOf(root, 'svc')).toBe('decision');
    app({ cpuPriority: 'low' });
    expect(() => cpuPriorityOf(root, 'svc')).toThrow(/apps\/svc\/package.json: "cpuPriority" holds "low"/);
  });

  it("puts what an agent waits for on the decision path and what watches beside it in the background", () => {
    const of = (apps: string[]) => Object.fromEntries(apps.map((a) => [a, cpuPriorityOf(WORKSPACE_ROOT, a)]));
    expect(of(['reviewer', 'gate', 'gateway', 'console'])).toEqual({ reviewer: 'decision', gate: 'decision', gateway: 'decision', console: 'decision' });
    expect(of(['breaker', 'pattern-detector', 'intervention-controller', 'ladder', 'audit'])).toEqual({
      breaker: 'background',
      'pattern-detector': 'background',
      'intervention-controller': 'background',
      ladder: 'background',
      audit: 'background',
    });
  });
});

describe('applyCpuPriority', () => {
  it('lowers a background process to the background nice value and leaves a decision process as it is', async () => {
    const children = [0, 1].map(() => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));
    try {
      const [background, decision] = children.map((c) => c.pid!) as [number, number];
      const before = niceOf(decision);
      expect(applyCpuPriority(background, 'background')).toBe(true);
      expect(applyCpuPriority(decision, 'decision')).toBe(false);
      expect({ background: niceOf(background), decision: niceOf(decision) }).toEqual({ background: BACKGROUND_NICENESS, decision: before });
    } finally {
      await Promise.all(children.map((c) => new Promise((resolve) => (c.once('exit', resolve), c.kill('SIGKILL')))));
    }
  });
});
