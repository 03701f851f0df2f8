import type { InterventionType, Severity } from '@warden/contracts';
import { PATTERN_INTERVENTIONS } from './intervention-settings.js';
import { atRank, rank } from './severity.js';

/**
 * The seed's progressive strategy: after an intervention that did not work (effectiveness below the
 * threshold) the next one is one step stronger; after one that worked, one step milder.
 */
export function nextProgressive(current: InterventionType, effectiveness: number, threshold: number): InterventionType {
  return effectiveness < threshold ? atRank(rank(current) + 1) : atRank(rank(current) - 1);
}

/** The seed's pattern-specific strategy: each pattern type has its own ladder, indexed by severity. */
export function selectPatternSpecific(issueType: string, severity: Severity): InterventionType {
  const ladder = PATTERN_INTERVENTIONS[issueType as keyof typeof PATTERN_INTERVENTIONS] ?? PATTERN_INTERVENTIONS.default;
  const index = severity === 'low' ? 0 : severity === 'medium' ? 1 : severity === 'high' ? 2 : ladder.length - 1;
  return ladder[Math.min(index, ladder.length - 1)]!;
}
