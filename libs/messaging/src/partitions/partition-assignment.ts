/**
 * Which partitions each live replica should own: replicas sorted by id take partitions round-robin, so
 * that every replica computes the same answer from the same member list and the load is even.
 */
export function assignPartitions(members: readonly string[], partitions: number): Map<string, number[]> {
  const sorted = [...new Set(members)].sort();
  const assignment = new Map<string, number[]>(sorted.map((m) => [m, []]));
  if (!sorted.length) return assignment;
  for (let p = 0; p < partitions; p++) assignment.get(sorted[p % sorted.length]!)!.push(p);
  return assignment;
}
