import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@warden/observability';
import type { GateOptions } from '../config.js';
import { CommandDispatcher } from '../core/command-dispatcher.js';
import { GATE_OPTIONS } from '../core/gate-options.js';
import { CommandInbox } from './command-inbox.js';
import { HitlController } from './hitl.controller.js';
import { OpenApiController } from './openapi.controller.js';
import { SessionViews } from './session-views.js';

/** Runs the command inbox when GATE_INBOX_DIR is set. */
@Injectable()
class InboxLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private inbox?: CommandInbox;

  constructor(
    @Inject(GATE_OPTIONS) private readonly options: GateOptions,
    private readonly dispatcher: CommandDispatcher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const inbox = this.options.inbox;
    if (!inbox) return;
    this.inbox = new CommandInbox(inbox.dir, (command, key) => this.dispatcher.dispatch(command, key), this.logger, inbox.scanMs);
    await this.inbox.start();
    this.logger.info({ dir: inbox.dir }, 'command inbox watched');
  }

  async onModuleDestroy(): Promise<void> {
    await this.inbox?.stop();
  }
}

/** HITL commands from operators: the HTTP API (FR-11.5), its OpenAPI description, and the inbox directory (FR-11.4). */
@Module({
  controllers: [HitlController, OpenApiController],
  providers: [SessionViews, InboxLifecycle],
})
export class HitlModule {}
