import { goalAfter, GOAL_MAX_LENGTH, MESSAGE_DEFINITIONS, exampleMessage, validateMessage, type MessageDefinition } from './index.js';

const plan = `Implement the following plan:\n\n${'### A step\nWhat changes and why, and the checks that follow.\n'.repeat(180)}### Last. \`src/tui/ui.rs\` — render the overlay\n`;

describe("a session's goal", () => {
  it('holds a whole approved plan of 10,000 characters, valid in session.started', () => {
    expect(plan.length).toBeGreaterThan(9_000);
    expect(plan.length).toBeLessThan(GOAL_MAX_LENGTH);
    const started = exampleMessage(MESSAGE_DEFINITIONS.find((d) => d.type === 'session.started') as MessageDefinition) as { payload: { context: { goal?: string } } };
    started.payload.context.goal = plan;
    expect(validateMessage(started)).toEqual(expect.objectContaining({ ok: true }));
    expect(goalAfter(undefined, plan)).toBe(plan);
  });

  it('keeps the plan, the files of its last section too, after a follow-up request', () => {
    const goal = goalAfter(plan, 'yes, go ahead');
    expect(goal).toContain('`src/tui/ui.rs`');
    expect(goal.endsWith('Latest request: yes, go ahead')).toBe(true);
    expect(goal.length).toBeLessThanOrEqual(GOAL_MAX_LENGTH);
  });

  it('is cut at the most a message carries', () => {
    const endless = 'x'.repeat(GOAL_MAX_LENGTH * 2);
    expect(goalAfter(undefined, endless)).toHaveLength(GOAL_MAX_LENGTH);
    expect(goalAfter(endless, endless)).toHaveLength(GOAL_MAX_LENGTH);
    expect(goalAfter(endless, 'and the tests')).toContain('Latest request: and the tests');
  });
});
