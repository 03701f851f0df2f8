import type { AutomationLevel } from '@warden/contracts';

/**
 * How the ladder grants and takes autonomy. The defaults are the seed's (002 §7.2), plus the probation
 * that makes autonomy slower to win back than to lose. config.ts reads them from the environment.
 */
export interface LadderSettings {
  /** The level of an agent the ladder has not seen before. */
  initialLevel: AutomationLevel;
  /** Whether earned promotions happen at all; demotions and operator commands always do. */
  allowLevelUp: boolean;
  /** Weight of the newest human approval in the approval rate (exponential moving average). */
  approvalAlpha: number;
  /** Runs an agent must complete after an automatic demotion before it may be promoted again. */
  probationRuns: number;
  /** Ids of processed messages kept per agent, so that a redelivered message is never counted twice. */
  rememberedMessages: number;
  /** Level changes kept per agent, so that a redelivered message publishes the same change again. */
  rememberedChanges: number;
  /** Sessions whose observations are kept per agent, until their run is counted or newer sessions push them out. */
  rememberedSessions: number;
}

export const DEFAULT_LADDER_SETTINGS: Readonly<LadderSettings> = {
  initialLevel: 1,
  allowLevelUp: true,
  approvalAlpha: 0.1,
  probationRuns: 10,
  rememberedMessages: 200,
  rememberedChanges: 20,
  rememberedSessions: 32,
};
