import { parseAction, type ParsedAction } from '../parsing/parsed-action.js';
import { ReviewSession } from '../session/review-session.js';
import { NetworkValidator } from './network-validator.js';
import type { ProjectKnowledge } from '@warden/project-knowledge';
import type { ValidationContext } from './tool-validator.js';

const CWD = '/work/app';
const bash = (command: string) => parseAction({ kind: 'tool_use', tool: 'Bash', input: { command } }, CWD);
const fetch = (url: string, extra: Record<string, unknown> = {}) => parseAction({ kind: 'tool_use', tool: 'WebFetch', input: { url, prompt: 'read it', ...extra } }, CWD);

const KNOWLEDGE: ProjectKnowledge = {
  source: 'knowledge.toml',
  appliesTo: [],
  endpoints: [
    { name: 'Playwright Server', defaultUrl: 'http://localhost:9222', configKey: 'PLAYWRIGHT_SERVER_URL', healthCheck: '/json/version' },
    { name: 'Main API', defaultUrl: 'http://localhost:8080', configKey: 'API_BASE_URL' },
  ],
  configPatterns: [],
  practices: [],
  knownIssues: [],
};

function context(steps: [ParsedAction, string?][] = [], knowledge?: ProjectKnowledge, suspectEndpoints: string[] = ['localhost:3000']): ValidationContext {
  const session = new ReviewSession('agent-1', 's1', 1_000);
  steps.forEach(([action, error], i) => {
    session.recordAction(action, `a${i}`, 'allow', 1_000 + i);
    session.recordOutcome(error ? { actionId: `a${i}`, status: 'error', error: { message: error, class: 'ECONNREFUSED' } } : { actionId: `a${i}`, status: 'success' }, 1_000 + i);
  });
  return knowledge ? { session, knowledge, suspectEndpoints } : { session, suspectEndpoints };
}

const RISKS = [
  { kind: 'wrong_endpoint', description: 'May not be the intended service' },
  { kind: 'service_not_running', description: 'Service may not be running on 3000' },
];

describe('NetworkValidator', () => {
  const validator = new NetworkValidator();

  it('applies to network requests', () => {
    expect(validator.appliesTo(fetch('http://localhost:3000/api'))).toBe(true);
    expect(validator.appliesTo(bash('curl localhost:3000/health'))).toBe(true);
    expect(validator.appliesTo(bash('cat .env'))).toBe(false);
  });

  it('asks for confirmation before acting on localhost:3000 (the seed rule)', () => {
    for (const action of [bash('curl -X POST http://localhost:3000/api/reset'), bash('curl -d @seed.json 127.0.0.1:3000/api/items'), fetch('http://localhost:3000/api', { method: 'DELETE' })]) {
      expect(validator.validate(action, context())).toEqual({
        kind: 'require_confirmation',
        reason: 'Request targets localhost:3000, an endpoint agents often assume: it may not be the intended service, or nothing may be running there.',
        risks: RISKS,
      });
    }
  });

  it('takes localhost:3000 for the server the agent started, in the same line or before, or for one that answered it', () => {
    expect(validator.validate(bash('(npm run dev > /tmp/dev.log 2>&1 &); until grep -q Ready /tmp/dev.log; do sleep 0.5; done; curl -X POST localhost:3000/api/reset'), context()).kind).not.toBe('require_confirmation');
    expect(validator.validate(bash('curl -X POST http://localhost:3000/api/reset'), context([[bash('npm run dev &')]])).kind).not.toBe('require_confirmation');
    expect(validator.validate(bash('curl -X POST http://localhost:3000/api/reset'), context([[bash('curl -sS http://localhost:3000/health')]])).kind).not.toBe('require_confirmation');
    // One that refused it is down, not answered.
    expect(validator.validate(bash('curl -X POST http://localhost:3000/api/reset'), context([[bash('curl -sS http://localhost:3000/health'), 'curl: (7) Failed to connect to localhost port 3000: Connection refused']])).kind).toBe('require_confirmation');
  });

  it('only cautions when a request to localhost:3000 just looks', () => {
    const result = validator.validate(bash('curl -sS http://localhost:3000/json/version'), context());
    expect(result).toEqual({ kind: 'caution', warning: 'Probing localhost:3000, an endpoint agents often assume: make sure it is the service the project uses.' });
    expect(validator.validate(bash('nc -z localhost 3000'), context()).kind).toBe('caution');
  });

  it('trusts a suspect endpoint the project knows, and the settings decide what is suspect', () => {
    const knowsIt = { ...KNOWLEDGE, endpoints: [...KNOWLEDGE.endpoints, { name: 'Web', defaultUrl: 'http://localhost:3000' }] };
    expect(validator.validate(bash('curl -X POST http://localhost:3000/api'), context([], knowsIt))).toEqual({ kind: 'approve' });
    expect(validator.validate(bash('curl -X POST http://localhost:3000/api'), context([], undefined, []))).toEqual({ kind: 'approve' });
    expect(validator.validate(bash('curl -X POST http://localhost:5173/api'), context([], undefined, ['127.0.0.1:5173'])).kind).toBe('require_confirmation');
  });

  it("names the project's endpoints when the request goes elsewhere", () => {
    const result = validator.validate(bash('curl -X POST http://localhost:3000/api'), context([], KNOWLEDGE));
    expect(result.kind === 'require_confirmation' && result.reason).toContain(
      "The project's known endpoints: Playwright Server http://localhost:9222 (PLAYWRIGHT_SERVER_URL), Main API http://localhost:8080 (API_BASE_URL).",
    );
    expect(validator.alternatives(bash('curl -X POST http://localhost:3000/api'), context([], KNOWLEDGE))).toEqual([
      "Use the project's Playwright Server at http://localhost:9222 (configured by PLAYWRIGHT_SERVER_URL); check it with curl -sS http://localhost:9222/json/version",
      "Use the project's Main API at http://localhost:8080 (configured by API_BASE_URL); check it with curl -sS http://localhost:8080",
      'Check which endpoint the configuration names before connecting',
      'Check whether anything listens on port 3000: lsof -i :3000',
    ]);
  });

  it('cautions on a local port none of the known endpoints uses', () => {
    expect(validator.validate(fetch('http://localhost:5000/status'), context([], KNOWLEDGE))).toEqual({
      kind: 'caution',
      warning: "Request targets localhost:5000, which is none of the project's known endpoints: Playwright Server http://localhost:9222 (PLAYWRIGHT_SERVER_URL), Main API http://localhost:8080 (API_BASE_URL).",
    });
    expect(validator.validate(fetch('http://127.0.0.1:9222/json/version'), context([], KNOWLEDGE))).toEqual({ kind: 'approve' });
    expect(validator.validate(fetch('https://registry.npmjs.org/left-pad'), context([], KNOWLEDGE))).toEqual({ kind: 'approve' });
    expect(validator.validate(fetch('http://localhost:5000/status'), context())).toEqual({ kind: 'approve' });
  });

  describe('an endpoint that just refused a connection', () => {
    const failure: [ParsedAction, string] = [bash('npx playwright test'), 'Failed to connect to Playwright server at localhost:3000 ECONNREFUSED'];

    it('asks before acting on it again, and says why', () => {
      const result = validator.validate(bash('curl -X POST http://127.0.0.1:3000/session'), context([failure], undefined, []));
      expect(result).toEqual({
        kind: 'require_confirmation',
        reason: expect.stringMatching(
          /^localhost:3000 did not accept a connection in a recent failure \("Failed to connect to Playwright server at localhost:3000 ECONNREFUSED"\) and nothing was started since: retrying an endpoint known to be down/,
        ),
        risks: RISKS,
      });
    });

    it('lets a first probe through; probing a local service again draws a caution, a remote one is held', () => {
      expect(validator.validate(bash('curl -sS localhost:3000/json/version'), context([failure], undefined, []))).toEqual({ kind: 'approve' });
      const probedOnce = context([failure, [bash('curl -sS localhost:3000/json/version'), 'curl: (7) Failed to connect to localhost port 3000: Connection refused']], undefined, []);
      const again = validator.validate(bash('curl -sS http://localhost:3000/json/version'), probedOnce);
      expect(again.kind === 'caution' && again.warning).toMatch(/^localhost:3000 did not accept a connection when it was last probed/);
      const remote = context([[bash('curl -sS https://api.internal:8443/health'), 'curl: (7) Failed to connect to api.internal port 8443: Connection refused']], undefined, []);
      const remoteAgain = validator.validate(bash('curl -sS https://api.internal:8443/health'), remote);
      expect(remoteAgain.kind === 'require_confirmation' && remoteAgain.reason).toMatch(/^api\.internal:8443 did not accept a connection when it was probed/);
    });

    it('lets requests through once something was started', () => {
      const started = context([failure, [bash('npx playwright run-server --port 3000 &')]], undefined, []);
      expect(validator.validate(bash('curl -X POST http://localhost:3000/session'), started)).toEqual({ kind: 'approve' });
      const composed = context([failure, [bash('docker compose up -d playwright')]], undefined, []);
      expect(validator.validate(bash('curl -X POST http://localhost:3000/session'), composed)).toEqual({ kind: 'approve' });
    });

    it('reads the refused address of the failed request itself', () => {
      const curlFailed = context([[bash('curl -X POST https://api.internal:8443/v1/jobs'), 'curl: (7) Failed to connect']], undefined, []);
      expect(validator.validate(bash('curl -X POST https://api.internal:8443/v1/jobs'), curlFailed).kind).toBe('require_confirmation');
      expect(validator.validate(bash('curl -X POST https://api.internal:9443/v1/jobs'), curlFailed)).toEqual({ kind: 'approve' });
    });
  });
});
