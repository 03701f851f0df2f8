import { randomUUID } from 'node:crypto';
import { AppliedIds } from './applied-ids.js';

describe('AppliedIds', () => {
  it('remembers the newest ids up to its limit, oldest first, moving one applied again to the end', () => {
    const ids = Array.from({ length: 6 }, () => randomUUID());
    const applied = new AppliedIds(4);
    for (const id of ids) applied.add(id);
    expect(applied.list()).toEqual(ids.slice(2));
    expect(applied.has(ids[1]!)).toBe(false);
    expect(applied.has(ids[2]!)).toBe(true);
    applied.add(ids[3]!);
    expect(applied.list()).toEqual([ids[2], ids[4], ids[5], ids[3]]);
  });

  it('lists what it will hold with one more id without changing', () => {
    const ids = Array.from({ length: 4 }, () => randomUUID());
    const applied = AppliedIds.of(ids, 4);
    const next = randomUUID();
    expect(applied.listWith(next)).toEqual([...ids.slice(1), next]);
    expect(applied.listWith(ids[0]!)).toEqual([...ids.slice(1), ids[0]]);
    expect(applied.list()).toEqual(ids);
  });

  it('holds ids that are no lower-case UUID as they are, beside those that are', () => {
    const ids = ['msg-1', randomUUID(), '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF', 'ffffffff-ffff-4fff-bfff-ffffffffffff', ''];
    const applied = new AppliedIds(64);
    for (const id of ids) applied.add(id);
    expect(applied.list()).toEqual(ids);
    for (const id of ids) expect(applied.has(id)).toBe(true);
    expect(applied.has('ffffffff-ffff-4fff-bfff-fffffffffffe')).toBe(false);
    expect(applied.has('msg-2')).toBe(false);
  });

  it('keeps every stored id, even beyond the limit, until the next is added', () => {
    const ids = Array.from({ length: 10 }, (_, i) => (i % 2 ? randomUUID() : `id-${i}`));
    const applied = AppliedIds.of(ids, 4);
    expect(applied.size).toBe(10);
    expect(ids.every((id) => applied.has(id))).toBe(true);
    applied.add('last');
    expect(applied.list()).toEqual([...ids.slice(7), 'last']);
  });
});
