import { request as httpRequest } from 'node:http';
import { Kvm } from '@nats-io/kv';
import { AUTOMATION_LEVEL_BUCKET, BREAKER_STATE_BUCKET, createMessage, EXAMPLE_PAYLOADS, LADDER_RECORD_BUCKET, newMessageId, OPERATOR_SESSION_BUCKET, publishSubject } from '@warden/contracts';
import { csrfTokenFor } from '@warden/operator-auth';
import { eventually } from '@warden/testing';
import { ConsoleFixture, EventStream } from './console-fixture.js';

/**
 * The console over HTTP against a real nats-server: logins and their cookie, what each role may do,
 * CSRF, pages rendered from the bus, and live streams scoped as FR-11.10 wants.
 */
describe('console', () => {
  let f: ConsoleFixture;
  let approverCookie: string;
  let viewerCookie: string;
  let adminCookie: string;

  beforeAll(async () => {
    f = await ConsoleFixture.start();
    await f.operator('ann-approver', 'approver');
    await f.operator('vic-viewer', 'viewer');
    await f.operator('ada-admin', 'admin');
    [approverCookie, viewerCookie, adminCookie] = await Promise.all([f.login('ann-approver'), f.login('vic-viewer'), f.login('ada-admin')]);
  }, 60_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  const csrfOf = (cookie: string) => csrfTokenFor(cookie.split('=')[1]!);

  /** A login form posted from a loopback address of the test's choosing (the whole 127/8 is this machine). */
  const loginFrom = (localAddress: string, operator: string, password: string, headers: Record<string, string> = {}, base = f.url) =>
    new Promise<number>((resolve, reject) => {
      const body = new URLSearchParams({ operator, password, next: '/' }).toString();
      const url = new URL('/login', base);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: '/login',
          method: 'POST',
          localAddress,
          headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const session = () => `s-${newMessageId().slice(0, 8)}`;

  describe('login', () => {
    it('sends a visitor without a login to the login form, and the login back', async () => {
      const page = await f.request('GET', '/approvals');
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toBe('/login?next=%2Fapprovals');
      const form = await f.request('GET', '/login?next=%2Fapprovals');
      expect(form.text).toContain('name="next" value="/approvals"');
    });

    it('sets an HttpOnly, SameSite=Strict cookie holding a token that is stored only hashed', async () => {
      const response = await f.request('POST', '/login', { form: { operator: 'ann-approver', password: f.passwords['ann-approver']!, next: '/agents' }, headers: { origin: f.url } });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/agents');
      const cookie = response.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^warden_session=wds_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
      const token = cookie.split(';')[0]!.split('=')[1]!;
      const kv = await new Kvm(f.bus.nc).open(OPERATOR_SESSION_BUCKET);
      const stored: string[] = [];
      for await (const key of await kv.keys()) stored.push(`${key} ${(await kv.get(key))!.string()}`);
      expect(stored.join('\n')).not.toContain(token);
      expect(stored.some((line) => line.includes('"operator_id":"ann-approver"'))).toBe(true);
    });

    it('refuses a wrong password without saying which part was wrong, and never an off-site next', async () => {
      const wrong = await f.request('POST', '/login', { form: { operator: 'ann-approver', password: 'not the password at all', next: '/' }, headers: { origin: f.url } });
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('Unknown operator or wrong password.');
      expect(wrong.headers.get('set-cookie')).toBeNull();
      const unknown = await f.request('POST', '/login', { form: { operator: 'nobody', password: 'whatever it is', next: '/' }, headers: { origin: f.url } });
      expect(unknown.text).toContain('Unknown operator or wrong password.');
      const offsite = await f.request('POST', '/login', { form: { operator: 'vic-viewer', password: f.passwords['vic-viewer']!, next: '//evil.example/' }, headers: { origin: f.url } });
      expect(offsite.headers.get('location')).toBe('/');
    });

    it('refuses a login posted from another site (login CSRF) and throttles guessing', async () => {
      const crossSite = await f.request('POST', '/login', { form: { operator: 'vic-viewer', password: f.passwords['vic-viewer']!, next: '/' }, headers: { origin: 'http://evil.example' } });
      expect(crossSite.status).toBe(403);
      await f.operator('guessed', 'viewer');
      for (let i = 0; i < 5; i++) {
        expect((await f.request('POST', '/login', { form: { operator: 'guessed', password: `guess number ${i}`, next: '/' }, headers: { origin: f.url } })).status).toBe(401);
      }
      const throttled = await f.request('POST', '/login', { form: { operator: 'guessed', password: f.passwords.guessed!, next: '/' }, headers: { origin: f.url } });
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
    });

    it('throttles guessing per source, and the operator still logs in from another address', async () => {
      await f.operator('targeted', 'approver');
      for (let i = 0; i < 5; i++) expect(await loginFrom('127.0.0.2', 'targeted', `guess ${i}`)).toBe(401);
      expect(await loginFrom('127.0.0.2', 'targeted', f.passwords.targeted!)).toBe(429);
      // The operator, from their own address: not locked out.
      expect(await loginFrom('127.0.0.3', 'targeted', f.passwords.targeted!)).toBe(303);
      // A source that guesses across operator ids is throttled for every id.
      for (let i = 0; i < 20; i++) expect(await loginFrom('127.0.0.4', `someone-${i}`, 'a guess')).toBe(401);
      expect(await loginFrom('127.0.0.4', 'vic-viewer', f.passwords['vic-viewer']!)).toBe(429);
      expect(await loginFrom('127.0.0.5', 'vic-viewer', f.passwords['vic-viewer']!)).toBe(303);
      // Without CONSOLE_TRUST_PROXY, X-Forwarded-For is anyone's to write: a guesser cannot be a new client with each try.
      for (let i = 0; i < 5; i++) expect(await loginFrom('127.0.0.6', 'targeted', `guess ${i}`, { 'x-forwarded-for': `203.0.113.${i}` })).toBe(401);
      expect(await loginFrom('127.0.0.6', 'targeted', f.passwords.targeted!, { 'x-forwarded-for': '203.0.113.99' })).toBe(429);
    }, 120_000);

    it('behind a proxy named in CONSOLE_TRUST_PROXY, throttles the client the proxy names, not the proxy', async () => {
      const proxied = await ConsoleFixture.start({ CONSOLE_TRUST_PROXY: '127.0.0.7' });
      try {
        await proxied.operator('behind-proxy', 'approver');
        const viaProxy = (client: string, password: string) => loginFrom('127.0.0.7', 'behind-proxy', password, { 'x-forwarded-for': client }, proxied.url);
        for (let i = 0; i < 5; i++) expect(await viaProxy('198.51.100.1', `guess ${i}`)).toBe(401);
        expect(await viaProxy('198.51.100.1', proxied.passwords['behind-proxy']!)).toBe(429);
        // The operator, through the same proxy from their own address: not locked out.
        expect(await viaProxy('198.51.100.2', proxied.passwords['behind-proxy']!)).toBe(303);
      } finally {
        await proxied.stop();
      }
    }, 120_000);

    it('logs out only with the CSRF token, and the cookie stops working', async () => {
      const cookie = await f.login('vic-viewer');
      expect((await f.request('POST', '/logout', { form: { _csrf: 'wrong' }, headers: { cookie, origin: f.url } })).status).toBe(403);
      const out = await f.request('POST', '/logout', { form: { _csrf: csrfOf(cookie) }, headers: { cookie, origin: f.url } });
      expect(out.status).toBe(303);
      expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
      expect((await f.request('GET', '/', { headers: { cookie } })).status).toBe(303);
      expect((await f.request('GET', '/events?page=sessions', { headers: { cookie } })).status).toBe(401);
    });
  });

  describe('the API of the buttons', () => {
    const act = (cookie: string, path: string, json: unknown, headers: Record<string, string> = { origin: f.url, 'x-csrf-token': csrfOf(cookie) }) =>
      f.request('POST', path, { json, headers: { cookie, ...headers } });

    it('answers 401 without a login and 403 to a viewer, who cannot approve', async () => {
      const s = session();
      expect(JSON.parse((await f.request('POST', `/api/sessions/${s}/approve`, { json: { agent_id: 'agent-1' } })).text)).toMatchObject({ status: 'error', reason: 'missing_credentials' });
      const viewer = await act(viewerCookie, `/api/sessions/${s}/approve`, { agent_id: 'agent-1' });
      expect(viewer.status).toBe(403);
      expect(JSON.parse(viewer.text)).toMatchObject({ reason: 'forbidden', detail: 'operator vic-viewer is a viewer; this needs approver (decide)' });
      expect((await act(approverCookie, '/api/agents/agent-1/level', { command: 'pin', level: 1 })).status).toBe(403);
    });

    it('answers a gate request only for an approver, with the CSRF token and the digest of what was shown', async () => {
      const digest = 'a'.repeat(64);
      expect((await act(viewerCookie, '/api/requests/req-1/respond', { approved: true, digest })).status).toBe(403);
      expect(JSON.parse((await act(approverCookie, '/api/requests/req-1/respond', { approved: true, digest }, { origin: f.url })).text).reason).toBe('csrf_check_failed');
      for (const [body, reason] of [
        [{ approved: true }, 'missing_required_field: digest (of the request the page showed)'],
        [{ approved: true, digest: 'abc' }, 'missing_required_field: digest (of the request the page showed)'],
        [{ approved: 'yes', digest }, 'invalid_field: approved (true or false)'],
      ] as const) {
        const answer = await act(approverCookie, '/api/requests/req-1/respond', body);
        expect([answer.status, JSON.parse(answer.text).reason]).toEqual([422, reason]);
      }
      // Checked, then sent to the gate (which nothing answers here).
      const sent = await act(approverCookie, '/api/requests/req-1/respond', { approved: true, digest });
      expect(sent.status).toBe(503);
      expect(JSON.parse(sent.text)).toMatchObject({ status: 'error', calls: [{ method: 'POST', path: '/gateway/requests/req-1/respond', status: 503 }] });
    });

    it('refuses a change without the CSRF token or from another origin', async () => {
      const s = session();
      const noToken = await act(approverCookie, `/api/sessions/${s}/approve`, { agent_id: 'agent-1' }, { origin: f.url });
      expect(noToken.status).toBe(403);
      expect(JSON.parse(noToken.text).reason).toBe('csrf_check_failed');
      const otherSite = await act(approverCookie, `/api/sessions/${s}/approve`, { agent_id: 'agent-1' }, { origin: 'http://evil.example', 'x-csrf-token': csrfOf(approverCookie) });
      expect(otherSite.status).toBe(403);
      const otherLogin = await act(approverCookie, `/api/sessions/${s}/approve`, { agent_id: 'agent-1' }, { origin: f.url, 'x-csrf-token': csrfOf(viewerCookie) });
      expect(otherLogin.status).toBe(403);
    });

    it('checks credentials before it reads a body: without a login, a body it cannot parse is not even looked at', async () => {
      const s = session();
      const answer = await f.request('POST', `/api/sessions/${s}/rewrite`, { headers: { 'content-type': 'application/json' }, body: '{"agent_id": "agent-1", "input": {{{ not json' });
      expect([answer.status, JSON.parse(answer.text).reason]).toEqual([401, 'missing_credentials']);
    });

    it('answers a rewrite nested 10,000 levels deep with 400 and the reason', async () => {
      const s = session();
      const deep = `{"agent_id":"agent-1","trace_id":"t1","input":{"command":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
      const answer = await f.request('POST', `/api/sessions/${s}/rewrite`, { headers: { cookie: approverCookie, origin: f.url, 'x-csrf-token': csrfOf(approverCookie), 'content-type': 'application/json' }, body: deep });
      expect([answer.status, JSON.parse(answer.text)]).toEqual([400, { status: 'error', reason: 'body_too_deep', detail: 'the body nests deeper than 64 levels' }]);
    });

    it('checks the input before calling the gate: a rewrite needs a JSON object', async () => {
      const s = session();
      for (const [body, reason] of [
        [{ agent_id: 'agent-1', trace_id: 't1', input: [1, 2] }, 'invalid_input: the tool input must be a JSON object'],
        [{ agent_id: 'agent-1', trace_id: 't1', input: '{"command":"ls"}' }, 'invalid_input: the tool input must be a JSON object'],
        [{ agent_id: 'agent-1', input: {} }, 'missing_required_field: trace_id'],
        [{ agent_id: 'bad agent' }, 'invalid_field: agent_id'],
      ] as const) {
        const answer = await act(approverCookie, `/api/sessions/${s}/rewrite`, body);
        expect([answer.status, JSON.parse(answer.text).reason]).toEqual([422, reason]);
      }
      expect(JSON.parse((await act(approverCookie, `/api/sessions/${s}/launch`, { agent_id: 'agent-1' })).text).reason).toMatch(/^unknown_action/);
      const gateDown = await act(approverCookie, `/api/sessions/${s}/approve`, { agent_id: 'agent-1' });
      expect([gateDown.status, JSON.parse(gateDown.text).calls[0].path]).toEqual([503, `/gateway/sessions/${s}/unpause`]);
    });

    it('lets an admin pin a level: a ladder command as that operator', async () => {
      const sub = f.bus.nc.subscribe('warden.ladder_command.>', { max: 1 });
      const answer = await act(adminCookie, '/api/agents/agent-7/level', { command: 'pin', level: 2 });
      expect(JSON.parse(answer.text)).toMatchObject({ status: 'ok' });
      for await (const msg of sub) {
        expect(msg.json<Record<string, any>>()).toMatchObject({ type: 'ladder.command', agent_id: 'agent-7', payload: { command: 'pin', level: 2, operator_id: 'ada-admin' } });
      }
    });
  });

  describe('pages from the bus', () => {
    it('lists a session with its last action, shows it paused in the queue, and renders its drill-down', async () => {
      const s = session();
      await f.publish('session', 'session.started', { session_id: s, payload: { context: { goal: 'Install jq' } } });
      const verdict = await f.publish('verdict', 'review.verdict', {
        session_id: s,
        payload: { ...EXAMPLE_PAYLOADS['review.verdict'], action_id: 'a1', verdict: 'require_approval', reasons: ['apt-get runs as root'], action: { kind: 'tool_use', tool: 'Bash', input: { command: 'sudo apt-get install -y jq' } } },
      });
      await f.publish('gate', 'hitl.paused', { session_id: s, trace_id: 'W1', payload: { operator_id: 'system', reason: 'Needs approval', trigger: 'require_approval' } });
      const list = await eventually('the session in the list', async () => (await f.request('GET', '/', { headers: { cookie: viewerCookie } })).text, (text) => text.includes(`id="row-agent-1.${s}"`));
      expect(list).toMatch(new RegExp(`id="row-agent-1.${s}"[^>]*data-status="paused"`));
      const queue = (await f.request('GET', '/approvals', { headers: { cookie: approverCookie } })).text;
      expect(queue).toContain(`id="approval-agent-1.${s}"`);
      expect(queue).toContain('sudo apt-get install -y jq');
      expect(queue).toContain('apt-get runs as root');
      expect(queue).toContain(`data-trace="${verdict.trace_id}"`);
      expect(queue).toContain('data-action="approve"');
      const asViewer = (await f.request('GET', '/approvals', { headers: { cookie: viewerCookie } })).text;
      expect(asViewer).toContain(`id="approval-agent-1.${s}"`);
      expect(asViewer).not.toContain('data-action="approve"');
      const drill = await f.request('GET', `/sessions/${s}`, { headers: { cookie: viewerCookie } });
      expect(drill.status).toBe(200);
      expect(drill.text).toContain('data-shape="diamond"');
      expect(drill.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect((await f.request('GET', '/sessions/nope-nope', { headers: { cookie: viewerCookie } })).status).toBe(404);

      // The answer of a gate request, in the drill-down: who, through which channel, with which digest, after how long.
      const digest = 'ab'.repeat(32);
      await f.publish('gate', 'gate.responded', { session_id: s, payload: { request_id: 'req-1', gate_id: 'migrations', approved: true, approver: 'alice', response_ms: 42_000, outcome: 'approved', channel: 'slack', digest } });
      const answered = await eventually('the answer in the drill-down', async () => (await f.request('GET', `/sessions/${s}`, { headers: { cookie: viewerCookie } })).text, (text) => text.includes('id="session-answers"'));
      expect(answered).toContain(`gate <strong>migrations</strong>: approved by alice via <span class="channel">slack</span> after 42 s · digest <code title="${digest}">${digest.slice(0, 16)}</code>`);

      // One nobody answered: denied at its final deadline, with the channels that were asked.
      await f.publish('gate', 'gate.responded', {
        session_id: s,
        payload: { request_id: 'req-2', gate_id: 'migrations', approved: false, approver: 'system', reason: 'TIMEOUT', response_ms: 600_000, outcome: 'timed_out', asked_channels: ['oncall', 'pager'] },
      });
      const unanswered = await eventually('the unanswered request in the drill-down', async () => (await f.request('GET', `/sessions/${s}`, { headers: { cookie: viewerCookie } })).text, (text) => text.includes('data-request="req-2"'));
      expect(unanswered).toContain('gate <strong>migrations</strong>: denied: no answer within 10 min <span class="asked">(asked: oncall, pager)</span>');
    });

    it("shows a session's open breakers, patterns and its agent's level, from KV and the bus", async () => {
      const s = session();
      await f.publish('session', 'session.started', { session_id: s, agent_id: 'agent-2', payload: { context: {} } });
      await f.publish('pattern', 'pattern.detected', {
        session_id: s,
        agent_id: 'agent-2',
        payload: { ...EXAMPLE_PAYLOADS['pattern.detected'], pattern_type: 'repetitive_errors', shadow: false },
      });
      const now = new Date().toISOString();
      await (await new Kvm(f.bus.nc).open(BREAKER_STATE_BUCKET)).put(
        `agent-2.${s}`,
        JSON.stringify({ agent_id: 'agent-2', session_id: s, state: 'open', breakers: [{ breaker: 'cost', state: 'open', reason: 'over budget' }, { breaker: 'time', state: 'closed' }], updated_at: now }),
      );
      await (await new Kvm(f.bus.nc).open(AUTOMATION_LEVEL_BUCKET)).put('agent-2', JSON.stringify({ agent_id: 'agent-2', level: 3, updated_at: now }));
      const row = await eventually(
        'the row with breakers, pattern and level',
        async () => /<div role="row"[^>]*id="row-agent-2\.[^"]*"[\s\S]*?<\/div>/.exec((await f.request('GET', '/', { headers: { cookie: viewerCookie } })).text)?.[0] ?? '',
        (text) => text.includes('breaker">cost<') && text.includes('pattern">repetitive_errors<') && text.includes('class="num">3<'),
      );
      expect(row).not.toContain('breaker">time<');
    });

    it('escapes what agents send', async () => {
      const s = session();
      await f.publish('action', 'action.proposed', { session_id: s, payload: { ...EXAMPLE_PAYLOADS['action.proposed'], action_id: 'x1', tool: 'Bash', input: { command: '<img src=x onerror=alert(1)>' } } });
      const list = await eventually('the row', async () => (await f.request('GET', '/', { headers: { cookie: viewerCookie } })).text, (text) => text.includes(s));
      expect(list).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(list).not.toContain('<img src=x');
    });

    it('never shows an envelope that names another agent or session than its subject, as the services refuse it', async () => {
      const s = session();
      // Published on agent-1's own subject, the envelope says it is agent-2's: every service dead-letters it.
      const forged = createMessage('action.proposed', { agent_id: 'agent-2', session_id: s, payload: { ...EXAMPLE_PAYLOADS['action.proposed'], action_id: 'forged', tool: 'Bash', input: { command: 'forged-by-agent-1' } } });
      await f.bus.js.publish(publishSubject('action', 'agent-1', s), new TextEncoder().encode(JSON.stringify(forged)), { msgID: forged.id });
      // A genuine event published after it: once the console shows it, it has read the forged one too.
      const marker = session();
      await f.publish('session', 'session.started', { session_id: marker, payload: { context: {} } });
      await eventually('the marker row', async () => (await f.request('GET', '/', { headers: { cookie: viewerCookie } })).text, (text) => text.includes(marker));
      await eventually('the forged envelope counted as skipped', async () => (await f.request('GET', '/metrics')).text, (text) => /warden_console_events_skipped_total\{[^}]*reason="identity_mismatch"[^}]*\} [1-9]/.test(text));
      const list = (await f.request('GET', '/', { headers: { cookie: viewerCookie } })).text;
      expect(list).not.toContain('forged-by-agent-1');
      expect(list).not.toContain(s);
    });

    it('shows agents with their track record', async () => {
      const kv = await new Kvm(f.bus.nc).open(LADDER_RECORD_BUCKET);
      await kv.put('agent-9', JSON.stringify({ level: 2, pin: null, metrics: { totalRuns: 51, successfulRuns: 50, falsePositives: 1, missedCriticalBugs: 0, approvalRate: 0.85, lastUpdated: new Date().toISOString() } }));
      const page = await eventually('agent-9', async () => (await f.request('GET', '/agents', { headers: { cookie: adminCookie } })).text, (text) => text.includes('id="agent-agent-9"'));
      expect(page).toContain('51 (50 ok)');
      expect(page).toContain('data-command="pin"');
      expect((await f.request('GET', '/agents', { headers: { cookie: viewerCookie } })).text).not.toContain('data-command="pin"');
    });
  });

  describe('live streams', () => {
    it('streams changed rows to the sessions list', async () => {
      const s = session();
      const stream = await EventStream.open(`${f.url}/events?page=sessions`, viewerCookie);
      try {
        expect(stream.events[0]).toEqual({ event: 'hello', data: { page: 'sessions' } });
        await f.publish('session', 'session.started', { session_id: s, payload: { context: {} } });
        const seen = await stream.waitFor((events) => events.some((e) => e.event === 'rows' && e.data.rows.some((r: { id: string }) => r.id === `row-agent-1.${s}`)));
        const row = seen.find((e) => e.event === 'rows')!.data.rows.find((r: { id: string }) => r.id === `row-agent-1.${s}`);
        expect(row.html).toContain('data-status="running"');
      } finally {
        stream.close();
      }
    });

    it('sends the approvals page its cards when the stream starts: a pause between the page and its stream is not lost', async () => {
      const s = session();
      // The page as rendered names the board's version in its stream's address.
      const rendered = Number(/\/events\?page=approvals&amp;since=(\d+)|\/events\?page=approvals&since=(\d+)/.exec((await f.request('GET', '/approvals', { headers: { cookie: viewerCookie } })).text)?.slice(1).find(Boolean));
      expect(Number.isInteger(rendered)).toBe(true);
      // Paused after the page was rendered, before its stream began: no change comes after it.
      await f.publish('gate', 'hitl.paused', { session_id: s, trace_id: 'WL', payload: { operator_id: 'x', reason: 'held before the stream', trigger: 'operator' } });
      await eventually('the pause applied', async () => (await f.request('GET', '/approvals', { headers: { cookie: viewerCookie } })).text, (text) => text.includes(`approval-agent-1.${s}`));
      const stream = await EventStream.open(`${f.url}/events?page=approvals&since=${rendered}`, viewerCookie);
      try {
        const seen = await stream.waitFor((events) => events.some((e) => e.event === 'approvals' && e.data.cards.some((c: { id: string }) => c.id === `approval-agent-1.${s}`)));
        expect(seen.find((e) => e.event === 'approvals')!.data.cards.find((c: { id: string }) => c.id === `approval-agent-1.${s}`).html).toContain('held before the stream');
      } finally {
        stream.close();
      }
    });

    it('scopes a drill-down stream to its session: another session never reaches it (FR-11.10)', async () => {
      const mine = session();
      const other = session();
      await f.publish('session', 'session.started', { session_id: mine, payload: { context: {} } });
      await eventually('the session known', async () => (await f.request('GET', `/sessions/${mine}`, { headers: { cookie: viewerCookie } })).status === 200);
      const stream = await EventStream.open(`${f.url}/events?page=session&session=${mine}&agent=agent-1`, viewerCookie);
      await f.publish('gate', 'hitl.paused', { session_id: other, trace_id: 'WO', payload: { operator_id: 'x', reason: 'other session', trigger: 'operator' } });
      await f.publish('gate', 'hitl.paused', { session_id: mine, trace_id: 'WM', payload: { operator_id: 'x', reason: 'my session', trigger: 'operator' } });
      const at = new Date().toISOString();
      await f.publish('gate', 'hitl.intervention_recorded', {
        session_id: mine,
        payload: { intervention_id: 'i-mine', operator_id: 'ann-approver', command_type: 'hitl_rewrite', before_state: null, after_state: null, reversed_at: null, occurred_at: at },
      });
      const seen = await stream.waitFor((events) => events.some((e) => e.event === 'session' && e.data.fragments.some((p: { html: string }) => p.html.includes('hitl_rewrite'))));
      stream.close();
      const sessionEvents = seen.filter((e) => e.event === 'session');
      expect(sessionEvents.length).toBeGreaterThan(0);
      expect(sessionEvents.every((e) => e.data.key === `agent-1.${mine}`)).toBe(true);
      expect(JSON.stringify(sessionEvents)).not.toContain(other);
      expect(JSON.stringify(sessionEvents)).not.toContain('other session');
    });

    it('refuses a stream without a login or with an unknown page', async () => {
      expect((await f.request('GET', '/events?page=sessions')).status).toBe(401);
      expect((await f.request('GET', '/events?page=everything', { headers: { cookie: viewerCookie } })).status).toBe(422);
      expect((await f.request('GET', '/events?page=session&session=a.b&agent=x', { headers: { cookie: viewerCookie } })).status).toBe(422);
    });
  });

  it('serves /metrics and /health/ready', async () => {
    expect((await f.request('GET', '/health/ready')).status).toBe(200);
    const metrics = (await f.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/^warden_console_sessions\{service="console"\} \d+$/m);
    expect(metrics).toContain('warden_console_logins_total{result="ok",service="console"}');
  });
});
