import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@warden/observability';
import type { ReviewResult } from '@warden/review';

/** The reviewer's series: reviews by verdict, review time, cache hit ratio, rule and validator hits. */
@Injectable()
export class ReviewMetrics {
  private readonly reviews;
  private readonly duration;
  private readonly slow;
  private readonly cacheLookups;
  private readonly cacheHitRatio;
  private readonly sessions;
  private readonly ruleHits;
  private readonly ruleErrors;
  private readonly validations;
  readonly configReloads;
  readonly sessionsRebuilt;

  constructor(metrics: MetricsRegistry) {
    this.reviews = metrics.counter({ name: 'warden_reviews_total', help: 'Reviews by enforced verdict and what decided it.', labelNames: ['verdict', 'decided_by'] });
    this.duration = metrics.histogram({
      name: 'warden_review_duration_seconds',
      help: 'Time to review one action, in process.',
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.1],
    });
    this.slow = metrics.counter({ name: 'warden_reviews_slow_total', help: 'Reviews slower than performance.max_review_time_ms.' });
    this.cacheLookups = metrics.counter({ name: 'warden_review_cache_lookups_total', help: 'Review cache lookups by result (hit ratio = hit / all).', labelNames: ['result'] });
    this.cacheHitRatio = metrics.gauge({ name: 'warden_review_cache_hit_ratio', help: 'Review cache hits over lookups since the reviewer was configured.' });
    this.sessions = metrics.gauge({ name: 'warden_review_sessions', help: 'Sessions the reviewer remembers on this replica.' });
    this.ruleHits = metrics.counter({
      name: 'warden_review_rule_hits_total',
      help: 'Rules that matched, by rule and whether they were enforced or in shadow mode.',
      labelNames: ['rule', 'mode'],
    });
    this.ruleErrors = metrics.counter({ name: 'warden_review_rule_errors_total', help: 'Rules or validators that failed during a review.', labelNames: ['rule'] });
    this.validations = metrics.counter({
      name: 'warden_review_validations_total',
      help: 'Tool validator results other than approve, by validator and result.',
      labelNames: ['validator', 'result'],
    });
    this.configReloads = metrics.counter({ name: 'warden_review_config_reloads_total', help: 'Configuration reloads by result.', labelNames: ['result'] });
    this.sessionsRebuilt = metrics.counter({
      name: 'warden_review_sessions_rebuilt_total',
      help: 'Sessions this replica took over mid-way (after a restart or a handover) and rebuilt from their stored messages.',
    });
  }

  record(result: ReviewResult, reviewer: { cacheStats(): { hits: number; misses: number }; sessionStore: { size: number } }): void {
    const { hits, misses } = reviewer.cacheStats();
    if (hits + misses) this.cacheHitRatio.set(hits / (hits + misses));
    this.sessions.set(reviewer.sessionStore.size);
    this.reviews.inc({ verdict: result.verdict.verdict, decided_by: result.verdict.decided_by ?? 'matrix' });
    this.duration.observe(result.durationMs / 1000);
    if (result.slow) this.slow.inc();
    this.cacheLookups.inc({ result: result.cacheHit ? 'hit' : 'miss' });
    for (const rule of result.ruleHits) this.ruleHits.inc({ rule, mode: 'enforced' });
    for (const rule of result.shadowHits) this.ruleHits.inc({ rule, mode: 'shadow' });
    for (const error of result.ruleErrors) this.ruleErrors.inc({ rule: error.rule });
    for (const validation of result.validations) this.validations.inc({ validator: validation.validator, result: validation.result.kind });
  }
}
