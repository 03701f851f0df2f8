import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeOptionsError, nodeOptionsOf } from '../src/node-options.js';
import { WORKSPACE_ROOT } from '../src/service-process.js';

describe('nodeOptionsOf', () => {
  let root: string;
  const app = (manifest: object) => {
    mkdirSync(join(root, 'apps', 'svc'), { recursive: true });
    writeFileSync(join(root, 'apps', 'svc', 'package.json'), JSON.stringify(manifest));
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'node-options-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads the options an app lists, and none for an app without the field', () => {
    app({ name: 'svc', nodeOptions: ['--max-semi-space-size=32', '--enable-source-maps'] });
    expect(nodeOptionsOf(root, 'svc')).toEqual(['--max-semi-space-size=32', '--enable-source-maps']);
    app({ name: 'svc' });
    expect(nodeOptionsOf(root, 'svc')).toEqual([]);
  });

  it('refuses what is not a list of single options, naming the file and the entry', () => {
    app({ nodeOptions: '--max-semi-space-size=32' });
    expect(() => nodeOptionsOf(root, 'svc')).toThrow(NodeOptionsError);
    expect(() => nodeOptionsOf(root, 'svc')).toThrow(/apps\/svc\/package.json: "nodeOptions" must be a list/);
    app({ nodeOptions: ['--max-semi-space-size=32 --inspect'] });
    expect(() => nodeOptionsOf(root, 'svc')).toThrow(/holds "--max-semi-space-size=32 --inspect"/);
    app({ nodeOptions: ['max-semi-space-size=32'] });
    expect(() => nodeOptionsOf(root, 'svc')).toThrow(/each entry is one option/);
  });

  it('gives the reviewer and the audit a larger young generation, and the other services none of their own', () => {
    expect(nodeOptionsOf(WORKSPACE_ROOT, 'reviewer')).toEqual(['--max-semi-space-size=32']);
    expect(nodeOptionsOf(WORKSPACE_ROOT, 'audit')).toEqual(['--max-semi-space-size=64']);
    for (const other of ['breaker', 'gate']) expect(nodeOptionsOf(WORKSPACE_ROOT, other)).toEqual([]);
  });
});
