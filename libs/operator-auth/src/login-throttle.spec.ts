import { LoginThrottle } from './login-throttle.js';

describe('login throttle', () => {
  it('refuses an id after five failures until the window has passed', () => {
    let now = 0;
    const throttle = new LoginThrottle(5, 60_000, () => now);
    for (let i = 0; i < 4; i++) throttle.failed('alice');
    expect(throttle.retryAfterMs('alice')).toBe(0);
    throttle.failed('alice');
    now = 10_000;
    expect(throttle.retryAfterMs('alice')).toBe(50_000);
    expect(throttle.retryAfterMs('bob')).toBe(0);
    now = 60_000;
    expect(throttle.retryAfterMs('alice')).toBe(0);
  });

  it('forgets failures after a success', () => {
    const throttle = new LoginThrottle(2, 60_000, () => 0);
    throttle.failed('alice');
    throttle.succeeded('alice');
    throttle.failed('alice');
    expect(throttle.retryAfterMs('alice')).toBe(0);
  });
});

describe('login throttle per source', () => {
  it('refuses the guessing source, not the operator from another source', () => {
    const throttle = new LoginThrottle({}, 60_000, () => 0);
    for (let i = 0; i < 5; i++) throttle.failed('alice', '203.0.113.9');
    expect(throttle.retryAfterMs('alice', '203.0.113.9')).toBe(60_000);
    expect(throttle.retryAfterMs('alice', '192.0.2.10')).toBe(0);
  });

  it('refuses a source guessing across ids', () => {
    const throttle = new LoginThrottle({ perSource: 20 }, 60_000, () => 0);
    for (let i = 0; i < 20; i++) throttle.failed(`op-${i}`, '203.0.113.9');
    expect(throttle.retryAfterMs('someone-new', '203.0.113.9')).toBe(60_000);
    expect(throttle.retryAfterMs('someone-new', '192.0.2.10')).toBe(0);
  });

  it('refuses every source that failed for an id under attack, and still lets a clean source in', () => {
    const throttle = new LoginThrottle({ perOperator: 50 }, 60_000, () => 0);
    for (let i = 0; i < 50; i++) throttle.failed('alice', `198.51.100.${i}`);
    expect(throttle.retryAfterMs('alice', '198.51.100.3')).toBe(60_000);
    expect(throttle.retryAfterMs('alice', '192.0.2.10')).toBe(0);
  });
});
