/**
 * `record[key]` for the record's own keys only. Tables looked up by what an agent wrote (a command name,
 * an option, a variable) would otherwise find what every object inherits: a command named `constructor`
 * or `toString` found a function, and `$__proto__` an object.
 */
export function ownEntry<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
