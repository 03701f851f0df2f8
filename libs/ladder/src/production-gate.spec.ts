import { AUTOMATION_LEVEL_DEFINITIONS, AUTOMATION_LEVELS, isAllowedAtLevel, LADDER_ACTIONS, SEVERITIES } from '@warden/contracts';

/**
 * Production deploys keep their human gate at every level: no level, however earned, lets an agent
 * deploy to production on its own, whatever the risk.
 */
describe('production deploys always keep their human gate', () => {
  it.each([...AUTOMATION_LEVELS])('level %i never allows auto_deploy_production, at any risk', (level) => {
    for (const risk of SEVERITIES) expect({ level, risk, allowed: isAllowedAtLevel(level, 'auto_deploy_production', risk) }).toEqual({ level, risk, allowed: false });
  });

  it('while level 4 does allow every other low-risk action, so the exclusion is specific', () => {
    for (const action of LADDER_ACTIONS.filter((a) => a !== 'auto_deploy_production')) expect(isAllowedAtLevel(4, action, 'low')).toBe(true);
  });

  it('is what level 4 promises', () => {
    expect(AUTOMATION_LEVEL_DEFINITIONS[4]!.capabilities).toContain('Human gates ALWAYS remain for production deploys');
  });
});
