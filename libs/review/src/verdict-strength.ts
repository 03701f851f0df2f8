import type { VerdictKind } from '@warden/contracts';

/** How strongly a verdict holds an action back: the strongest of several findings wins. */
export const VERDICT_STRENGTH: Record<VerdictKind, number> = { allow: 0, warn: 1, modify: 2, require_approval: 3, block: 4 };
