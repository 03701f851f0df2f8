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
