import {
  deadLetterSubject,
  parseSessionSubject,
  partitionFilter,
  partitionMapping,
  partitionOf,
  publishSubject,
  SESSION_CHANNEL_IDS,
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
