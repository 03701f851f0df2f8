import {
  anyChannelSubscription,
  deadLetterSubject,
  deadLetterSubscription,
  parseSessionSubject,
  partitionFilter,
  partitionMapping,
  partitionOf,
  publishSubject,
  requestSubject,
  requestSubjects,
  SESSION_CHANNEL_IDS,
  sessionSubject,
  sessionSubscription,
  streamSubject,
} from './index.js';

describe('subjects', () => {
  it('puts intent first and identifiers last', () => {
    expect(publishSubject('action', 'claude-code', 'sess-1')).toBe('warden.action.claude-code.sess-1');
    expect(streamSubject('action')).toBe('warden.action.*.*.*');
    expect(partitionFilter('verdict', 3)).toBe('warden.verdict.3.*.*');
  });

  it('maps the session token to a partition on the server', () => {
    expect(partitionMapping('action', 8)).toEqual({
      from: 'warden.action.*.*',
      to: 'warden.action.{{partition(8,2)}}.{{wildcard(1)}}.{{wildcard(2)}}',
    });
  });

  it('reads back a stored subject', () => {
    expect(parseSessionSubject('warden.decision.5.agent-7.sess-9')).toEqual({
      channel: 'decision',
      partition: 5,
      agentId: 'agent-7',
      sessionId: 'sess-9',
    });
  });

  it('writes the stored subject it reads back', () => {
    const address = { channel: 'outcome', partition: 3, agentId: 'agent-7', sessionId: 'sess-9' } as const;
    expect(sessionSubject(address)).toBe('warden.outcome.3.agent-7.sess-9');
    expect(parseSessionSubject(sessionSubject(address))).toEqual(address);
  });

  it('subscribes to one session on one channel or on all, in any partition', () => {
    expect(sessionSubscription('decision', 'agent-7', 'sess-9')).toBe('warden.decision.*.agent-7.sess-9');
    expect(anyChannelSubscription('agent-7', 'sess-9')).toBe('warden.*.*.agent-7.sess-9');
    // Not the dead letters (seven tokens), the gate's buffer (four) or the queries (three).
    expect(anyChannelSubscription('agent-7', 'sess-9').split('.')).toHaveLength(5);
  });

  it.each([
    'warden.action.agent.sess',
    'warden.teleport.1.agent.sess',
    'warden.action.x.agent.sess',
    'other.action.1.agent.sess',
    'warden.action.1.agent.sess.extra',
  ])('does not read %s as a session subject', (subject) => {
    expect(parseSessionSubject(subject)).toBeNull();
  });

  it('keeps the origin in dead-letter subjects', () => {
    const origin = parseSessionSubject('warden.action.1.agent-1.sess-1');
    expect(deadLetterSubject('reviewer', origin)).toBe('warden.deadletter.reviewer.action.1.agent-1.sess-1');
    expect(deadLetterSubject('audit', null)).toBe('warden.deadletter.audit._._._._');
    expect(deadLetterSubscription('agent-1', 'sess-1')).toBe('warden.deadletter.*.*.*.agent-1.sess-1');
    expect(deadLetterSubscription('agent-1', '_', { service: 'ladder', channel: 'ladder_command' })).toBe('warden.deadletter.ladder.ladder_command.*.agent-1._');
  });

  it('finds every request channel under the request subjects', () => {
    expect(requestSubjects()).toBe('warden.query.>');
    expect(requestSubject('audit_query')).toMatch(/^warden\.query\.[a-z-]+$/);
  });

  it('has a channel id that is one subject token for every session channel', () => {
    for (const id of SESSION_CHANNEL_IDS) expect(id).toMatch(/^[a-z_]+$/);
  });
});

describe('partitionOf', () => {
  // Values nats-server 2.9.10 assigned with {{partition(8,2)}}; the messaging integration tests check many more.
  it.each([
    ['sess-1', 1],
    ['sess-2', 0],
    ['sess-3', 3],
  ])('puts %s in partition %i of 8 like the server does', (session, expected) => {
    expect(partitionOf(session, 8)).toBe(expected);
  });

  it('spreads sessions over all partitions', () => {
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 8000; i++) counts[partitionOf(`session-${i}`, 8)]++;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });
});
