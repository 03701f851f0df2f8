const DERIVED = Symbol('derived values');

type Holder = { [DERIVED]?: Map<DerivedValue<never, unknown>, unknown> };

/**
 * A value computed from an object once, however many rules ask for it, and dropped with the object
 * (a parsed action, its segments, a remembered action).
 *
 * Kept in a hidden property of the object rather than a WeakMap: V8's young-generation collector keeps a
 * WeakMap's values alive until the next full collection, so each review's derived values were copied and
 * promoted to the old generation. A review of a 4 KB line then paid milliseconds of collection for them.
 */
export class DerivedValue<K extends object, V> {
  constructor(private readonly compute: (owner: K) => V) {}

  of(owner: K): V {
    const holder = owner as Holder;
    let values = holder[DERIVED];
    if (values?.has(this)) return values.get(this) as V;
    const value = this.compute(owner);
    // Computing may have derived another value of the same object, and made its map.
    values ??= holder[DERIVED];
    if (!values) {
      // A frozen object (a shared empty list) keeps nothing: its value is computed again.
      if (!Object.isExtensible(owner)) return value;
      values = new Map();
      Object.defineProperty(owner, DERIVED, { value: values });
    }
    values.set(this, value);
    return value;
  }
}
