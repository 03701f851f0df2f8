import { Module, type DynamicModule } from '@nestjs/common';
import { MessagingModule } from '@warden/messaging';
import { ObservabilityModule, type Logger } from '@warden/observability';
import type { ReviewerConfig } from './config.js';
import { ReviewModule } from './review/review.module.js';

@Module({})
export class ReviewerAppModule {
  static forRoot(config: ReviewerConfig, logger: Logger): DynamicModule {
    return {
      module: ReviewerAppModule,
      imports: [
        ObservabilityModule.forRoot({ service: 'reviewer', logger }),
        MessagingModule.forRoot(config.messaging),
        ReviewModule,
      ],
    };
  }
}
