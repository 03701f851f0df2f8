import { DerivedValue } from './derived-value.js';

describe('DerivedValue', () => {
  it('computes a value once per object, however often it is asked', () => {
    let computed = 0;
    const length = new DerivedValue((owner: { text: string }) => (computed++, owner.text.length));
    const owner = { text: 'rm -rf dist' };
    expect([length.of(owner), length.of(owner), length.of({ text: 'ls' })]).toEqual([11, 11, 2]);
    expect(computed).toBe(2);
  });

  it('keeps undefined as an answer instead of computing it again', () => {
    let computed = 0;
    const none = new DerivedValue((_owner: object) => (computed++, undefined));
    const owner = {};
    none.of(owner);
    none.of(owner);
    expect(computed).toBe(1);
  });

  it('lets one value be derived from another of the same object', () => {
    const words = new DerivedValue((owner: { text: string }) => owner.text.split(' '));
    const count = new DerivedValue((owner: { text: string }) => words.of(owner).length);
    const owner = { text: 'git push --force' };
    expect(count.of(owner)).toBe(3);
    expect(words.of(owner)).toBe(words.of(owner));
    expect(count.of(owner)).toBe(3);
  });

  it('computes again for a frozen object, which can keep nothing', () => {
    let computed = 0;
    const size = new DerivedValue((owner: readonly string[]) => (computed++, owner.length));
    const shared = Object.freeze(['a']);
    expect([size.of(shared), size.of(shared)]).toEqual([1, 1]);
    expect(computed).toBe(2);
  });
});
