import type { AutomationLevel } from '@warden/contracts';
import { checkRequirements, highestLevelStillHeld, levelLabel } from './level-requirements.js';
import type { LevelMetrics } from './track-record.js';

const metrics = (overrides: Partial<LevelMetrics> = {}): LevelMetrics => ({
  totalRuns: 1000,
  successfulRuns: 1000,
  falsePositives: 0,
  missedCriticalBugs: 0,
  approvalRate: 1,
  lastUpdated: '2026-11-21T10:00:00.000Z',
  ...overrides,
});

// Seed 002 §7.1, level by level.
const LEVELS: { level: AutomationLevel; minRuns: number; maxFp: number; maxMissed: number; minApproval?: number }[] = [
  { level: 1, minRuns: 10, maxFp: 0.5, maxMissed: 5 },
  { level: 2, minRuns: 50, maxFp: 0.2, maxMissed: 1, minApproval: 0.8 },
  { level: 3, minRuns: 200, maxFp: 0.05, maxMissed: 0, minApproval: 0.9 },
  { level: 4, minRuns: 500, maxFp: 0.02, maxMissed: 0, minApproval: 0.95 },
];

describe('checkRequirements (seed 002 §7.1 / §7.2)', () => {
  describe.each(LEVELS)('level $level', ({ level, minRuns, maxFp, maxMissed, minApproval }) => {
    it(`needs ${minRuns} runs: met at and above it, not one below`, () => {
      // False positives stay at 0 so that only the run count decides.
      expect(checkRequirements(level, metrics({ totalRuns: minRuns - 1 })).met).toBe(false);
      expect(checkRequirements(level, metrics({ totalRuns: minRuns })).met).toBe(true);
      expect(checkRequirements(level, metrics({ totalRuns: minRuns + 1 })).met).toBe(true);
      expect(checkRequirements(level, metrics({ totalRuns: minRuns - 1 })).failures).toEqual([`${minRuns - 1} runs < ${minRuns}`]);
    });

    it(`allows a false-positive rate up to ${maxFp}: met at and below it, not just above`, () => {
      const atLimit = Math.round(maxFp * 1000);
      expect(checkRequirements(level, metrics({ falsePositives: atLimit - 1 })).met).toBe(true);
      expect(checkRequirements(level, metrics({ falsePositives: atLimit })).met).toBe(true);
      expect(checkRequirements(level, metrics({ falsePositives: atLimit + 1 })).met).toBe(false);
      expect(checkRequirements(level, metrics({ falsePositives: atLimit + 1 })).failures).toEqual([
        `false-positive rate ${(atLimit + 1) / 1000} > ${maxFp}`,
      ]);
    });

    it(`allows ${maxMissed} missed critical bug(s): met at and below it, not one above`, () => {
      if (maxMissed > 0) expect(checkRequirements(level, metrics({ missedCriticalBugs: maxMissed - 1 })).met).toBe(true);
      expect(checkRequirements(level, metrics({ missedCriticalBugs: maxMissed })).met).toBe(true);
      expect(checkRequirements(level, metrics({ missedCriticalBugs: maxMissed + 1 })).met).toBe(false);
      expect(checkRequirements(level, metrics({ missedCriticalBugs: maxMissed + 1 })).failures).toEqual([
        `missed critical bugs ${maxMissed + 1} > ${maxMissed}`,
      ]);
    });

    if (minApproval === undefined) {
      it('does not look at the approval rate', () => {
        expect(checkRequirements(level, metrics({ approvalRate: 0 })).met).toBe(true);
      });
    } else {
      it(`needs an approval rate of ${minApproval}: met at and above it, not just below`, () => {
        expect(checkRequirements(level, metrics({ approvalRate: minApproval - 1e-9 })).met).toBe(false);
        expect(checkRequirements(level, metrics({ approvalRate: minApproval })).met).toBe(true);
        expect(checkRequirements(level, metrics({ approvalRate: minApproval + 1e-9 })).met).toBe(true);
        expect(checkRequirements(level, metrics({ approvalRate: 0.5 })).failures).toEqual([`approval rate 0.5 < ${minApproval}`]);
      });
    }

    it('leaves the run count out when asked to judge only the quality of the runs', () => {
      expect(checkRequirements(level, metrics({ totalRuns: 1 }), { includeRuns: false }).met).toBe(true);
    });
  });

  it('describes every requirement with its figure', () => {
    const check = checkRequirements(2, metrics({ totalRuns: 50, falsePositives: 2, approvalRate: 0.85 }));
    expect(check).toEqual({
      met: true,
      findings: ['50 runs >= 50', 'false-positive rate 0.04 <= 0.2', 'missed critical bugs 0 <= 1', 'approval rate 0.85 >= 0.8'],
      failures: [],
    });
  });

  it('computes no false-positive rate without runs, rather than dividing by zero', () => {
    expect(checkRequirements(1, metrics({ totalRuns: 0, falsePositives: 0 }), { includeRuns: false }).met).toBe(true);
  });
});

describe('highestLevelStillHeld', () => {
  it('finds the highest level at or below the ceiling whose quality requirements hold', () => {
    expect(highestLevelStillHeld(4, metrics({ approvalRate: 0.85 }))).toBe(2);
    expect(highestLevelStillHeld(4, metrics({ approvalRate: 0.85, missedCriticalBugs: 2 }))).toBe(1);
    expect(highestLevelStillHeld(2, metrics())).toBe(2);
  });

  it('has level 0 as the floor, even when the false-positive rate exceeds 1', () => {
    expect(highestLevelStillHeld(4, metrics({ totalRuns: 2, falsePositives: 5, missedCriticalBugs: 50 }))).toBe(0);
  });
});

describe('levelLabel', () => {
  it('names the level as the seed does', () => {
    expect([0, 1, 2, 3, 4].map((l) => levelLabel(l as AutomationLevel))).toEqual([
      'Manual (level 0)',
      'AI Suggests (level 1)',
      'AI Acts (level 2)',
      'AI Autonomous (level 3)',
      'Full Autonomy (level 4)',
    ]);
  });
});
