import { Module, type DynamicModule } from '@nestjs/common';
import { OperatorAuthModule } from '@warden/operator-auth';
import type { Logger } from '@warden/observability';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import type { GateConfig } from './config.js';
import { GateCoreModule } from './core/gate-core.module.js';
import { HitlModule } from './hitl/hitl.module.js';
import { HumanGatesModule } from './human-gates/human-gates.module.js';
import { RelayModule } from './relay/relay.module.js';

@Module({})
export class GateAppModule {
  static forRoot(config: GateConfig, logger: Logger): DynamicModule {
    return {
      module: GateAppModule,
      imports: [...serviceInfrastructure(config, logger), OperatorAuthModule.forRoot(), GateCoreModule.forRoot(config.gate), RelayModule, HitlModule, HumanGatesModule],
    };
  }
}
