/**
 * When a session's event happened: the time its message carries (the agent's clock, or a replayed
 * recording's) unless that is unreadable or later than JetStream stored the message by more than
 * `maxSkewMs`; then when it was stored. A recorded past is kept, so that a replay is judged on its own time.
 */
export function eventTime(timestamp: string | undefined, storedAt: number, maxSkewMs: number): number {
  const carried = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isFinite(carried) && carried <= storedAt + maxSkewMs ? carried : storedAt;
}
