import type { InterventionType } from '@warden/contracts';
import type { Issue } from './issue.js';
import type { DeclaredContext } from './session-record.js';

/** What a custom handler sees of the session. */
export interface CustomHandlerContext extends DeclaredContext {
  interventions: { type: InterventionType; issue_type: string; at: number }[];
}

/** What a custom handler decides: which intervention to run, optionally with its own text. */
export interface CustomIntervention {
  intervention_type: InterventionType;
  message?: string;
}

/**
 * A custom intervention handler (the seed's register_intervention). A module listed in
 * `custom_handlers` exports one as `default` or as `handler`. `intervene` returns null for issues it
 * leaves to the configured strategy; what it returns runs as that built-in intervention (so a stop
 * still pauses the session and a throttle is still enforced), with its message if it gives one.
 */
export interface CustomInterventionHandler {
  name: string;
  intervene(issue: Issue, context: CustomHandlerContext): CustomIntervention | null | Promise<CustomIntervention | null>;
}

const TYPES: readonly string[] = ['soft_correction', 'context_reinforcement', 'resource_throttling', 'checkpoint_rollback', 'emergency_stop'];

export function isCustomInterventionHandler(value: unknown): value is CustomInterventionHandler {
  return !!value && typeof value === 'object' && typeof (value as CustomInterventionHandler).name === 'string' && typeof (value as CustomInterventionHandler).intervene === 'function';
}

/** The registered handlers, consulted in registration order before the strategy. */
export class InterventionRegistry {
  private readonly handlers = new Map<string, CustomInterventionHandler>();

  /** Registers a handler under its name; registering a name again replaces the handler. */
  register(handler: CustomInterventionHandler): void {
    if (!isCustomInterventionHandler(handler)) throw new Error('a custom intervention handler needs a name and an intervene function');
    this.handlers.set(handler.name, handler);
  }

  get names(): string[] {
    return [...this.handlers.keys()];
  }

  /** The first handler's decision for the issue, or null when every handler leaves it to the strategy. */
  async decide(issue: Issue, context: CustomHandlerContext): Promise<{ handler: string; decision: CustomIntervention } | null> {
    for (const handler of this.handlers.values()) {
      const decision = await handler.intervene(issue, context);
      if (!decision) continue;
      if (!TYPES.includes(decision.intervention_type)) {
        throw new Error(`custom handler ${handler.name} returned an unknown intervention type: ${String(decision.intervention_type)}`);
      }
      return { handler: handler.name, decision };
    }
    return null;
  }
}
