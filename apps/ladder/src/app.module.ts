import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@warden/observability';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import type { LadderConfig } from './config.js';
import { LadderModule } from './ladder/ladder.module.js';

/**
 * The automation ladder: levels 0-4 earned from each agent's track record (seed 002 §7). The service
 * infrastructure consumes, validates and acknowledges every channel the contracts route to it, with
 * dead letters, metrics and health; LadderModule acts on run outcomes, emergency stops and commands.
 */
@Module({})
export class LadderAppModule {
  static forRoot(config: LadderConfig, logger: Logger): DynamicModule {
    return { module: LadderAppModule, imports: [...serviceInfrastructure(config, logger), LadderModule.forRoot(config)] };
  }
}
