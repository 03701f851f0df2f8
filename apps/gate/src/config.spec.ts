import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@warden/service-bootstrap';
import { loadGateConfig } from './config.js';

describe('gate configuration', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'gate-config-spec-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('defaults: the standard gates, no inbox, a 15 s reply wait', () => {
    const config = loadGateConfig({});
    expect(config.gate.gates.map((g) => g.id)).toEqual(['architecture_approval', 'production_deploy', 'security_findings', 'cost_overrun']);
    expect(config.gate.inbox).toBeUndefined();
    expect(config.gate.commandReplyTimeoutMs).toBe(15_000);
    expect(config.http.port).toBe(3105);
  });

  it('reads the inbox directory and gates from the environment', () => {
    const path = file('gates.yaml', 'gates:\n  - { id: deploys, prompt: Deploys need a look., when: { path: action.tool, equals: Deploy }, timeout_ms: 60000 }\n');
    const config = loadGateConfig({ GATE_CONFIG: path, GATE_INBOX_DIR: '/tmp/inbox', GATE_INBOX_SCAN_MS: '250' });
    expect(config.gate.gates.map((g) => g.id)).toContain('deploys');
    expect(config.gate.inbox).toEqual({ dir: '/tmp/inbox', scanMs: 250 });
  });

  it('refuses a bad file with the reason', () => {
    expect(() => loadGateConfig({ GATE_CONFIG: file('bad.yaml', 'gates: [{ id: x, prompt: p, when: { path: a, gt: big }, timeout_ms: 5 }]') })).toThrow(/gates\[0\]\.when\.gt must be a number/);
    expect(() => loadGateConfig({ GATE_CONFIG: file('unknown.yaml', 'gate: []') })).toThrow(ConfigurationError);
    expect(() => loadGateConfig({ GATE_CONFIG: join(dir, 'missing.yaml') })).toThrow(/GATE_CONFIG/);
    expect(() => loadGateConfig({ GATE_INBOX_SCAN_MS: '1', GATE_INBOX_DIR: '/tmp/x' })).toThrow(/GATE_INBOX_SCAN_MS/);
  });

  it('reads the file as every service does: JSON by its name, YAML otherwise, errors naming GATE_CONFIG and the file', () => {
    const json = file('gates.json', '{"standard_gates": {"cost_overrun": {"enabled": false}, "production_deploy": {"escalation": "release_manager"}}}');
    const gates = loadGateConfig({ GATE_CONFIG: json }).gate.gates;
    expect(gates.map((g) => g.id)).toEqual(['architecture_approval', 'production_deploy', 'security_findings']);
    expect(gates.find((g) => g.id === 'production_deploy')).toMatchObject({ escalation: 'release_manager', timeout_ms: 3_600_000 });
    // YAML in a .json file is not JSON.
    const yamlInJson = file('yaml.json', 'standard_gates:\n  cost_overrun: { enabled: false }\n');
    expect(() => loadGateConfig({ GATE_CONFIG: yamlInJson })).toThrow(new RegExp(`^GATE_CONFIG: ${yamlInJson} is not valid JSON: `));
    expect(loadGateConfig({ GATE_CONFIG: file('empty.yaml', '') }).gate.gates).toHaveLength(4);
    const missing = join(dir, 'missing.yaml');
    expect(() => loadGateConfig({ GATE_CONFIG: missing })).toThrow(`GATE_CONFIG: cannot read ${missing}: `);
    const list = file('list.yaml', '- id: x\n');
    expect(() => loadGateConfig({ GATE_CONFIG: list })).toThrow(new ConfigurationError(`GATE_CONFIG: ${list}: human gates configuration must be a mapping`));
    const unknown = file('typo.yaml', 'standard_gate: {}\n');
    expect(() => loadGateConfig({ GATE_CONFIG: unknown })).toThrow(`GATE_CONFIG: ${unknown}: unknown setting standard_gate (standard_gates, gates, approvals)`);
  });

  it('reads the escalation steps and the agents\' deadlines of approvals, checked against the channels and the gates', () => {
    const channels = ['approvals:', '  channels:', '    - { type: webhook, name: oncall, url: http://127.0.0.1:9/a, secret: webhook-secret-1 }', '    - { type: webhook, name: pager, url: http://127.0.0.1:9/b, secret: webhook-secret-2 }'];
    const path = file(
      'escalation.yaml',
      [...channels, '  escalation:', '    deployment_lead: [{ after_ms: 300000, channels: [pager] }]', '  agents:', '    nightly-bot: { timeout_ms: 900000 }'].join('\n'),
    );
    expect(loadGateConfig({ GATE_CONFIG: path }).gate.approvals.deadlines).toEqual({
      channels: ['oncall', 'pager'],
      escalation: { deployment_lead: [{ after_ms: 300000, channels: ['pager'] }] },
      agents: { 'nightly-bot': { timeout_ms: 900000 } },
    });
    const typo = file('typo-target.yaml', [...channels, '  escalation:', '    deploy_lead: [{ after_ms: 300000, channels: [pager] }]'].join('\n'));
    expect(() => loadGateConfig({ GATE_CONFIG: typo })).toThrow(`GATE_CONFIG: ${typo}: approvals.escalation.deploy_lead: no gate escalates to deploy_lead`);
    const unknownChannel = file('unknown-channel.yaml', [...channels, '  escalation:', '    default: [{ after_ms: 1000, channels: [sms] }]'].join('\n'));
    expect(() => loadGateConfig({ GATE_CONFIG: unknownChannel })).toThrow(/approvals.escalation.default\[0\].channels: sms is not an approval channel \(oncall, pager\)/);
    // Nobody's silence approves anything: a gate cannot be told to approve when its deadline passes.
    const approveOnTimeout = file('on-timeout.yaml', 'standard_gates:\n  production_deploy: { on_timeout: approve }\n');
    expect(() => loadGateConfig({ GATE_CONFIG: approveOnTimeout })).toThrow(/standard_gates.production_deploy.on_timeout is not a setting: .*nothing is approved by silence/);
  });
});
