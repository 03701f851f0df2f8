import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from '@warden/observability';
import { OperatorAuthModule } from '@warden/operator-auth';
import { serviceInfrastructure } from '@warden/service-bootstrap';
import type { ReviewerConfig } from './config.js';
import { ReviewModule } from './review/review.module.js';

@Module({})
export class ReviewerAppModule {
  static forRoot(config: ReviewerConfig, logger: Logger): DynamicModule {
    return { module: ReviewerAppModule, imports: [...serviceInfrastructure(config, logger), OperatorAuthModule.forRoot(), ReviewModule.forRoot(config)] };
  }
}
