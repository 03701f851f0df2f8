import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { statSync } from 'node:fs';
import { LOGGER, type Logger } from '@warden/observability';
import type { ReviewerConfig } from '../config.js';
import { readReviewSources, StepReviewer, SupervisionState, type ReviewSources } from '@warden/review';
import { readSettingsText } from '@warden/settings-loader';
import { ReviewMetrics } from './review-metrics.js';

export const REVIEWER_CONFIG = Symbol('warden.reviewer.config');

/**
 * Holds the live step reviewer and replaces it when the configuration, the custom rules file or a
 * knowledge file changes, keeping the sessions and the supervision state. A configuration that does not
 * load is logged and counted, and the running one stays.
 */
@Injectable()
export class StepReviewerHost implements OnModuleDestroy {
  private current: StepReviewer;
  private sources: ReviewSources;
  private files: string[];
  private stamps: string;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(REVIEWER_CONFIG) private readonly config: ReviewerConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly supervision: SupervisionState,
    private readonly metrics: ReviewMetrics,
  ) {
    // A broken configuration at start is fatal: the service must not review with rules nobody asked for.
    const sources = readReviewSources(config.configPath, readSettingsText);
    this.current = new StepReviewer({ ...sources, supervision });
    this.sources = sources;
    this.files = sources.files;
    this.stamps = this.stampOf(this.files);
    const { rules } = this.current.settings;
    logger.info(
      { config: config.configPath ?? '(defaults)', rules: this.current.ruleNames.length, builtin: rules.builtin, knowledge_files: sources.knowledge.length },
      'step reviewer configured',
    );
    if (config.configPath && config.reloadIntervalMs > 0) {
      this.timer = setInterval(() => this.reloadIfChanged(), config.reloadIntervalMs);
      this.timer.unref();
    }
  }

  get reviewer(): StepReviewer {
    return this.current;
  }

  /** The policy the running reviewer was built from (settings, custom rules, knowledge): what an explanation reviews with. */
  get policy(): ReviewSources {
    return this.sources;
  }

  /** Rebuilds the reviewer from disk now. Returns false (and keeps the running one) when the files do not load. */
  reload(): boolean {
    try {
      const sources = readReviewSources(this.config.configPath, readSettingsText);
      this.current = new StepReviewer({ ...sources, supervision: this.supervision, sessions: this.current.sessionStore });
      this.sources = sources;
      this.files = sources.files;
      this.stamps = this.stampOf(this.files);
      this.metrics.configReloads.inc({ result: 'applied' });
      this.logger.info({ rules: this.current.ruleNames.length }, 'review configuration reloaded');
      return true;
    } catch (error) {
      this.stamps = this.stampOf(this.files);
      this.metrics.configReloads.inc({ result: 'rejected' });
      this.logger.error({ err: error }, 'review configuration rejected; the previous one stays in force');
      return false;
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private reloadIfChanged(): void {
    if (this.stampOf(this.files) !== this.stamps) this.reload();
  }

  private stampOf(files: readonly string[]): string {
    return files
      .map((file) => {
        try {
          const stat = statSync(file);
          return `${file}:${stat.mtimeMs}:${stat.size}`;
        } catch {
          return `${file}:missing`;
        }
      })
      .join('|');
  }
}
