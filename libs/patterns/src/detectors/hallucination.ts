import type { Step } from '../action-step.js';
import { severityFor } from '../detector-settings.js';
import { isNotFound } from '../signals.js';
import { confidenceFrom, type Finding, type SessionView } from './detector.js';

function kindOf(step: Step): 'tool' | 'command' | 'module' | 'path' {
  const text = step.err_text ?? '';
  if (/unknown tool|no such tool|tool [^ ]+ (is )?not (found|available)/.test(text)) return 'tool';
  if (/command not found|missing script|unknown command|is not a (git )?command/.test(text)) return 'command';
  if (/cannot find module|module not found|modulenotfounderror|no module named/.test(text)) return 'module';
  return 'path';
}

/**
 * Repeated actions on paths, commands, modules or tools that do not exist, within the last
 * `window_actions` actions: the agent acts on what it imagines is there instead of looking. A failed
 * read counts half: it is how an agent looks.
 */
export function detectHallucination(view: SessionView): Finding | undefined {
  const settings = view.settings.hallucination;
  const recent = view.completed.slice(-settings.window_actions);
  const missing = recent.filter(isNotFound);
  // Reading or searching where nothing is, is looking: it counts half. Acting on it (running, importing,
  // calling, editing) counts whole.
  const weight = missing.reduce((sum, step) => sum + (step.op === 'read' || step.op === 'search' ? 0.5 : 1), 0);
  const severity = severityFor(settings.severity, Math.floor(weight));
  if (!severity) return undefined;
  const kinds = { path: 0, command: 0, module: 0, tool: 0 };
  for (const step of missing) kinds[kindOf(step)]++;
  const targets = missing.map((s) => ({ tool: s.tool ?? null, target: s.cmd?.slice(0, 120) ?? s.paths?.[0] ?? null, error: s.err_text?.slice(0, 120) ?? null }));
  return {
    severity,
    confidence: confidenceFrom(0.65, 0.06 * (weight - (settings.severity.medium ?? 4))),
    description: `${missing.length} of the last ${recent.length} actions targeted things that do not exist (${Object.entries(kinds).filter(([, n]) => n).map(([k, n]) => `${n} ${k}${n > 1 ? 's' : ''}`).join(', ')}); look before acting.`,
    evidence: missing.map((s) => s.id),
    details: { missing_count: missing.length, window_actions: settings.window_actions, kinds, missing: targets.slice(-10) },
    magnitude: weight,
  };
}
