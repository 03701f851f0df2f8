import { ResourceSlots } from './resource-slots.js';
import type { ResourceSlot } from './session-state.js';

const slot = (t: number, file_operations = 0, tokens = 0, cost_usd = 0, background = 0): ResourceSlot => ({ t, file_operations, tokens, cost_usd, background });

describe('ResourceSlots', () => {
  it('makes a slot once per start, with the processes running then, and adds to it', () => {
    const resources = new ResourceSlots(14);
    resources.background = 2;
    expect(resources.slotAt(10_000)).toBe(0);
    resources.add(0, 1, 6300, 0.0123);
    resources.add(resources.slotAt(10_000), 2, 100, 0.5);
    resources.background = 3;
    resources.endWithBackground(resources.slotAt(20_000));
    expect(resources.stored()).toEqual({ slots: [slot(10_000, 3, 6400, 0.0123 + 0.5, 2), slot(20_000, 0, 0, 0, 3)], background: 3 });
  });

  it('keeps the slots in time order, and drops the oldest', () => {
    const resources = new ResourceSlots(2);
    for (const t of [30, 10, 40, 20]) resources.add(resources.slotAt(t), t, 0, 0);
    expect(resources.stored().slots.map((s) => [s.t, s.file_operations])).toEqual([
      [10, 10],
      [20, 20],
      [30, 30],
      [40, 40],
    ]);
    expect(resources.slotAt(40)).toBe(3);
    resources.dropOldest(3);
    expect(resources.length).toBe(1);
    expect(resources.startOf(0)).toBe(40);
    expect(resources.stored().slots).toEqual([slot(40, 40)]);
    resources.add(resources.slotAt(50), 1, 1, 1);
    expect(resources.stored().slots.map((s) => s.t)).toEqual([40, 50]);
  });

  it('continues from the stored slots, which it gives back as they were', () => {
    const stored = { slots: [slot(1_772_442_000_000, 4, 12_000, 0.25, 1), slot(1_772_442_010_000, 1, 0, 0, 0)], background: 0 };
    const resources = ResourceSlots.of(JSON.parse(JSON.stringify(stored)) as typeof stored, 14);
    expect(resources.stored()).toEqual(stored);
    resources.add(resources.slotAt(1_772_442_000_000), 1, 1, 0.5);
    expect(resources.stored().slots[0]).toEqual(slot(1_772_442_000_000, 5, 12_001, 0.75, 1));
  });

  it('holds nothing once cleared', () => {
    const resources = ResourceSlots.of({ slots: [slot(1), slot(2)], background: 4 }, 14);
    resources.clear();
    expect(resources.stored()).toEqual({ slots: [], background: 0 });
    expect(resources.slotAt(3)).toBe(0);
  });
});
