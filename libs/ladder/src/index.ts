// What the ladder service uses of this library.
export { AutomationLadder, type ClaimedEnd, type CommandRejection, type ObservedDecision, observedOutcome, type LadderCommand, type LadderEvent, type LadderStep, type RunOutcome } from './automation-ladder.js';
export { DEFAULT_LADDER_SETTINGS, type LadderSettings } from './ladder-settings.js';
export { contractMetrics, CorruptTrackRecordError, type LevelChange, parseTrackRecord, type TrackRecord } from './track-record.js';
