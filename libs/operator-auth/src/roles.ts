/**
 * Who may do what on Warden's HTTP surfaces. Three roles, each including the one before:
 *
 * - viewer: `read` — sessions, the approvals queue, drill-downs, agents, audit queries;
 * - approver: also `decide` — pause, approve, rewrite, reject, inject, stop and resume sessions, answer
 *   human-gate requests;
 * - admin: also `administer` — set or pin agents' automation levels, run audit retention.
 */
export const OPERATOR_ROLES = ['viewer', 'approver', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const PERMISSIONS = ['read', 'decide', 'administer'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Readonly<Record<OperatorRole, readonly Permission[]>> = {
  viewer: ['read'],
  approver: ['read', 'decide'],
  admin: ['read', 'decide', 'administer'],
};

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
}

export function roleAllows(role: OperatorRole, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** The least role that has a permission, for messages such as "needs approver". */
export function leastRoleFor(permission: Permission): OperatorRole {
  return OPERATOR_ROLES.find((role) => roleAllows(role, permission))!;
}

/** Operator ids are KV key tokens and appear in audit rows: letters, digits, `-` and `_`, up to 64. */
const OPERATOR_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function isOperatorId(value: unknown): value is string {
  return typeof value === 'string' && OPERATOR_ID.test(value);
}
