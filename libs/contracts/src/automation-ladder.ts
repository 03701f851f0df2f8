import type { AutomationLevel, Severity } from './vocabulary.js';

/** Seed 002 §7.1: what each automation level lets an agent do, and what it takes to reach it. */
export interface AutomationLevelDefinition {
  level: AutomationLevel;
  name: string;
  description: string;
  capabilities: readonly string[];
  requirements: {
    minRuns: number;
    maxFalsePositiveRate: number;
    maxMissedCriticalBugs: number;
    minApprovalRate?: number;
  };
}

export const AUTOMATION_LEVEL_DEFINITIONS: readonly AutomationLevelDefinition[] = [
  {
    level: 0,
    name: 'Manual',
    description: 'Human does everything (current state)',
    capabilities: ['System provides suggestions only', 'All decisions require human approval', 'Full manual control'],
    requirements: { minRuns: 0, maxFalsePositiveRate: 1, maxMissedCriticalBugs: Number.POSITIVE_INFINITY },
  },
  {
    level: 1,
    name: 'AI Suggests',
    description: 'AI suggests, human decides',
    capabilities: ['Review comments are suggestions only', 'Test failures analyzed but human fixes', 'Deploy requires explicit approval'],
    requirements: { minRuns: 10, maxFalsePositiveRate: 0.5, maxMissedCriticalBugs: 5 },
  },
  {
    level: 2,
    name: 'AI Acts',
    description: 'AI acts, human reviews',
    capabilities: ['Auto-fix formatting and simple lint issues', 'Auto-approve low-risk reviews', 'Still requires human for medium+ risk'],
    requirements: { minRuns: 50, maxFalsePositiveRate: 0.2, maxMissedCriticalBugs: 1, minApprovalRate: 0.8 },
  },
  {
    level: 3,
    name: 'AI Autonomous',
    description: 'AI acts, human notified',
    capabilities: ['Auto-merge low-risk PRs', 'Auto-deploy to staging', 'Human notified, can override within window'],
    requirements: { minRuns: 200, maxFalsePositiveRate: 0.05, maxMissedCriticalBugs: 0, minApprovalRate: 0.9 },
  },
  {
    level: 4,
    name: 'Full Autonomy',
    description: 'Full autonomy (low-risk only)',
    capabilities: ['Fully autonomous for low-risk changes', 'Human gates remain for medium+ risk', 'Human gates ALWAYS remain for production deploys'],
    requirements: { minRuns: 500, maxFalsePositiveRate: 0.02, maxMissedCriticalBugs: 0, minApprovalRate: 0.95 },
  },
];

/** The kinds of autonomous action the ladder grants (seed 002 §7.2). */
export const LADDER_ACTIONS = ['auto_fix', 'auto_merge', 'auto_deploy_staging', 'auto_deploy_production'] as const;
export type LadderAction = (typeof LADDER_ACTIONS)[number];

/** Seed 002 §7.2 `isAllowed`, exactly: whether an agent at `level` may take `action` of `risk` without a human. */
export function isAllowedAtLevel(level: AutomationLevel, action: LadderAction, risk: Severity): boolean {
  switch (level) {
    case 0:
    case 1:
      return false;
    case 2:
      return action === 'auto_fix' && risk === 'low';
    case 3:
      return ['auto_fix', 'auto_merge', 'auto_deploy_staging'].includes(action) && risk === 'low';
    case 4:
      return risk === 'low' && action !== 'auto_deploy_production';
  }
}
