import { pathToFileURL } from 'node:url';
import { InterventionRegistry, isCustomInterventionHandler } from '@warden/interventions';
import { ConfigurationError } from '@warden/service-bootstrap';

/** Imports each configured module and registers the handler it exports (`default` or `handler`). */
export async function loadCustomHandlers(paths: string[], registry = new InterventionRegistry()): Promise<InterventionRegistry> {
  for (const path of paths) {
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigurationError(`custom_handlers: cannot load ${path}: ${(error as Error).message}`);
    }
    const handler = [module['default'], module['handler']].find(isCustomInterventionHandler);
    if (!handler) throw new ConfigurationError(`custom_handlers: ${path} exports no handler (an object with a name and an intervene function, as default or as handler)`);
    registry.register(handler);
  }
  return registry;
}
