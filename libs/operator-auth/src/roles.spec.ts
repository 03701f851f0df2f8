import { isOperatorId, isOperatorRole, leastRoleFor, roleAllows } from './roles.js';

describe('operator roles', () => {
  it('let a viewer read and nothing else', () => {
    expect(roleAllows('viewer', 'read')).toBe(true);
    expect(roleAllows('viewer', 'decide')).toBe(false);
    expect(roleAllows('viewer', 'administer')).toBe(false);
  });

  it('let an approver decide but not administer', () => {
    expect(roleAllows('approver', 'read')).toBe(true);
    expect(roleAllows('approver', 'decide')).toBe(true);
    expect(roleAllows('approver', 'administer')).toBe(false);
  });

  it('let an admin do everything', () => {
    expect(['read', 'decide', 'administer'].every((p) => roleAllows('admin', p as 'read'))).toBe(true);
  });

  it('name the least role of each permission', () => {
    expect([leastRoleFor('read'), leastRoleFor('decide'), leastRoleFor('administer')]).toEqual(['viewer', 'approver', 'admin']);
  });

  it('recognise roles and operator ids', () => {
    expect(isOperatorRole('approver')).toBe(true);
    expect(isOperatorRole('root')).toBe(false);
    expect(isOperatorId('operator-xander')).toBe(true);
    expect(isOperatorId('alice_2')).toBe(true);
    for (const bad of ['', ' alice', 'a.b', 'a*', '-lead', 'x'.repeat(65), 'al ice']) expect(isOperatorId(bad)).toBe(false);
  });
});
