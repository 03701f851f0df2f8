import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WORKSPACE_ROOT } from '@warden/local-runtime';
import { BusConnection, consumerName, streamName } from '@warden/messaging';
import { pendingFor, startFromNewMessages } from './consumers.js';
import { WardenClient, type AgentSession } from '@warden/sdk';
import { measureJetStream, measureRequestReply } from './baselines.js';
import { TestPostgres } from '@warden/testing';
import { measureAuditIngest } from './audit-ingest.js';
import { ingestLagSince, type IngestLagFigures } from './audit-lag.js';
import { BENCH_BREAKER_CONFIG, measureBreakerTime } from './breaker-time.js';
import { CpuMeter } from './cpu.js';
import { BenchEnvironment } from './environment.js';
import { ACTION_MIX, LoadDriver, type BacklogProbe, type LoadResult } from './load.js';
import { measureGateRelay } from './gate-relay.js';
import { machineInfo } from './machine.js';
import { measurePatternTime } from './pattern-time.js';
import { HELP, parseOptions, UsageError, type BenchOptions } from './options.js';
import { Progress } from './progress.js';
import { evaluateTargets, judgeStep, ms, num, ratios, renderReport, reviewerShare, sustainedStep, TARGETS, type StepResult } from './report.js';
import { measureReviewTime } from './review-time.js';
import { phaseFigures, scrapeService, type ServicePhaseFigures } from './service-metrics.js';
import { StageProbe } from './stages.js';
import { round, roundSummary } from './stats.js';
import { hookLines, runHookPhase, writeHooksOnly } from './hook-phase.js';
import { consoleLine, measureConsoleRender, writeConsoleOnly } from './console-render.js';
import { representativePayload, tidy, timeBudgetMs } from './run-helpers.js';
import { evaluateRatioTargets } from './ratio-targets.js';
import { measureWholeSuite, wholeSuiteLines } from './whole-suite.js';

const PAUSE_BETWEEN_PHASES_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Bench {
  private readonly progress = new Progress();
  private readonly env: BenchEnvironment;
  private readonly clients: WardenClient[] = [];
  private bus?: BusConnection;
  private probe?: StageProbe;
  private shuttingDown?: Promise<void>;

  constructor(private readonly options: BenchOptions) {
    this.env = new BenchEnvironment({ partitions: options.partitions, agents: options.agents, logDir: options.logDir, profileDir: options.profileDir });
  }

  /** Stops everything this run started: clients, the service connection, the services, nats-server. */
  shutdown(): Promise<void> {
    this.shuttingDown ??= (async () => {
      this.progress.stop();
      this.probe?.close();
      await Promise.all(this.clients.map((c) => Promise.race([c.close(), sleep(5_000)]).catch(() => undefined)));
      await Promise.race([this.bus?.close(), sleep(5_000)]).catch(() => undefined);
      await this.env.stop();
    })();
    return this.shuttingDown;
  }

  killNow(): void {
    this.env.killNow();
  }

  async run(): Promise<number> {
    const { options, progress, env } = this;
    const startedAt = new Date();
    const machine = machineInfo(WORKSPACE_ROOT);
    progress.note(
      `warden bench: ${machine.cpuModel} x${machine.cores}, node ${machine.node}, ${machine.natsServer}` +
        `${options.quick ? ' (quick smoke run)' : ''}`,
    );

    if (options.hooksOnly) return this.hooksOnly(startedAt, machine);
    if (options.consoleOnly) {
      const figures = await measureConsoleRender({ sessions: options.consoleSessions, loads: options.consoleLoads }, (text) => progress.phase(text));
      progress.stop();
      return writeConsoleOnly(options, startedAt, machine, figures);
    }

    progress.phase(`R: step reviewer in process (${TARGETS.reviewCustomRules} custom rules)`);
    const review = await measureReviewTime({ customRules: TARGETS.reviewCustomRules, count: options.quick ? 5_000 : 20_000 });
    progress.note(
      `R: review in process (node ${review.nodeOptions?.join(' ') || 'without options'}), ${review.rules.builtIn} built-in + ${review.rules.custom} custom rules: p50 ${ms(review.uncached.p50Ms)}, p99 ${ms(review.uncached.p99Ms)}, ` +
        `p999 ${ms(review.uncached.p999Ms)}; cached p99 ${ms(review.cached.p99Ms)}`,
    );
    progress.phase(`R: step reviewer in process (${TARGETS.reviewCustomRules} custom rules in CEL)`);
    const reviewCel = await measureReviewTime({ customRules: 0, celRules: TARGETS.reviewCustomRules, count: options.quick ? 5_000 : 20_000 });
    progress.note(`R: review with ${reviewCel.rules.custom} custom rules in CEL: p50 ${ms(reviewCel.uncached.p50Ms)}, p99 ${ms(reviewCel.uncached.p99Ms)}; cached p99 ${ms(reviewCel.cached.p99Ms)}`);
    if (review.longCommands) {
      const shapes = (review.longCommandShapes ?? []).map((s) => `${s.shape} ${ms(s.p50Ms)} / ${ms(s.p99Ms)}`).join(', ');
      progress.note(`R: shell commands of 1-4 KB: p50 ${ms(review.longCommands.p50Ms)}, p99 ${ms(review.longCommands.p99Ms)}${shapes ? ` (p50 / p99 by shape: ${shapes})` : ''}`);
      const gc = review.longCommandCollections;
      if (gc) {
        progress.note(
          `R: garbage collections began during ${gc.hit} of ${gc.operations} of those reviews (${ms(gc.meanPauseMs)} per pause); ` +
            `the others: p50 ${ms(gc.withoutPauses.p50Ms)}, p99 ${ms(gc.withoutPauses.p99Ms)}`,
        );
      }
    }

    progress.phase('K: breakers in process');
    const breakerTime = await measureBreakerTime({ count: options.quick ? 10_000 : 50_000 });
    progress.note(`K: breaker check per event in process: p50 ${ms(breakerTime.all.p50Ms)}, p99 ${ms(breakerTime.all.p99Ms)}, p999 ${ms(breakerTime.all.p999Ms)}`);

    progress.phase('P: pattern detectors in process (10,000 active sessions)');
    const patternTime = await measurePatternTime({ sessions: options.quick ? 1_000 : 10_000, count: options.quick ? 10_000 : 50_000 });
    progress.note(
      `P: detectors per event in process with ${num(patternTime.sessions)} sessions: p50 ${ms(patternTime.event.p50Ms)}, p99 ${ms(patternTime.event.p99Ms)}; ` +
        `heap ${num(patternTime.memory.heapUsedMb)} MB, RSS ${num(patternTime.memory.rssMb)} MB`,
    );

    progress.phase('I: audit ingest vs raw insert (own nats-server and PostgreSQL)');
    const auditIngest = await measureAuditIngest({ count: options.quick ? 5_000 : 20_000 });
    progress.note(
      `I: audit ingest ${num(auditIngest.ingestPersistedPerSec)} events/s persisted, raw multi-row insert ${num(auditIngest.baselineInsertPerSec)}/s ` +
        `(${auditIngest.ingestVsBaseline}x)`,
    );

    const consoleRender = await measureConsoleRender({ sessions: options.consoleSessions, loads: options.consoleLoads }, (text) => progress.phase(text));
    progress.note(consoleLine(consoleRender));

    progress.phase('starting nats-server');
    await env.startNats();
    progress.phase('provisioning the topology');
    const report = await env.provision();
    const created = report.changes.filter((c) => c.action === 'created');
    progress.note(
      `nats-server on ${env.url} (pid ${env.pids()['nats-server'] ?? '?'}), ${created.filter((c) => c.kind === 'stream').length} streams, ` +
        `${created.filter((c) => c.kind === 'consumer').length} consumers provisioned, ${options.partitions} partitions`,
    );

    const payload = representativePayload();
    progress.phase('A: core NATS request/reply');
    const requestReply = await measureRequestReply(env.service, { count: options.requests, payload }, (s) => progress.phase('A: core NATS request/reply', s));
    progress.note(`A: request/reply p50 ${ms(requestReply.rtt.p50)}, p99 ${ms(requestReply.rtt.p99)}, p999 ${ms(requestReply.rtt.p999)}`);

    progress.phase('B: JetStream publish-ack');
    const jetstream = await measureJetStream(
      env.service,
      { sequential: options.sequentialPublishes, window: options.publishWindow, durationS: options.publishDurationS, payload },
      (s) => progress.phase('B: JetStream publish-ack', s),
    );
    progress.note(
      `B: publish-ack p50 ${ms(jetstream.sequentialRtt.p50)}, p99 ${ms(jetstream.sequentialRtt.p99)}; ${num(jetstream.acksPerSecond)} acks/s with ${jetstream.window} in flight`,
    );

    progress.phase('G: gate relay (normal state, 10,000-message flush)');
    const gateRelay = await measureGateRelay(env.service, { partitions: options.partitions, buffer: options.quick ? 2_000 : 10_000 });
    progress.note(
      `G: gate relay adds p50 ${ms(gateRelay.normal_path.added_p50_ms)} to a bare publish; flush of ${num(gateRelay.flush.messages)} buffered: ` +
        `${num(gateRelay.flush.messages_per_second)}/s`,
    );

    for (const app of ['reviewer', 'gate']) {
      progress.phase(`starting ${app}`);
      const service = await env.startService(app);
      progress.note(`${app} ready at ${service.url} (pid ${service.pid})`);
    }

    progress.phase('connecting agents');
    this.bus = await BusConnection.open({ ...env.service, name: 'bench-probe' });
    for (let i = 0; i < options.agents; i++) {
      const agent = env.agent(i);
      this.clients.push(
        await WardenClient.connect({
          servers: env.url,
          agentId: agent.agentId,
          password: agent.password,
          decisionTimeoutMs: options.decisionTimeoutMs,
          name: `bench-${agent.agentId}`,
        }),
      );
    }
    const hooks = await runHookPhase(env, progress, this.clients[0]!, options);

    const runTag = Date.now().toString(36);
    const sessions: AgentSession[] = Array.from({ length: options.sessions }, (_, k) => this.clients[k % options.agents]!.session(`bench-${runTag}-${k}`));
    await Promise.all(sessions.map((s) => s.start({ context: { goal: 'benchmark the decision path', cwd: '/work/app' }, agent_kind: 'bench' })));

    // About ten sessions are sampled for the stage split; the verdicts of the others are never read.
    const every = Math.max(1, Math.ceil(options.sessions / 10));
    const sampled = new Set(sessions.filter((_, k) => k % every === 0).map((s) => s.sessionId));
    this.probe = new StageProbe(this.bus.nc, sampled, sessions.map((s) => ({ agentId: s.agentId, sessionId: s.sessionId })));
    await this.bus.nc.flush();

    const driver = new LoadDriver(sessions, options.decisionTimeoutMs, this.probe);
    const cpu = new CpuMeter(() => env.pids());
    const probeBacklog = () => this.probeBacklog();
    const status = (name: string) => (s: Parameters<Progress['phase']>[1]) => progress.phase(name, s);

    const warmupName = `warm-up ${num(options.rate)}/s for ${options.warmupS} s`;
    const warmup = await driver.openLoop({
      label: 'warmup',
      rate: options.rate,
      durationS: options.warmupS,
      maxBacklog: Math.max(1_000, options.rate * 2),
      status: status(warmupName),
    });
    progress.note(`warm-up: ${num(warmup.decided)} decided, p99 ${ms(warmup.latency.p99)}, ${warmup.lost} lost`);
    await sleep(PAUSE_BETWEEN_PHASES_MS);

    const latencyName = `latency ${num(options.rate)}/s for ${options.durationS} s`;
    // With --profile, nats-server's CPU over the measured load (it starts with the warm-up's end).
    const natsProfile = this.env.profileNats('latency', options.durationS);
    const latency = await this.withServiceFigures(() =>
      driver.openLoop({
        label: 'latency',
        rate: options.rate,
        durationS: options.durationS,
        maxBacklog: Math.max(1_000, options.rate * 2),
        status: status(latencyName),
        cpu,
        probeBacklog,
      }),
    );
    const natsProfileFile = await natsProfile;
    if (natsProfileFile) progress.note(`nats-server's CPU profile of the latency phase: ${natsProfileFile}`);
    progress.note(
      `latency @ ${num(options.rate)}/s: p50 ${ms(latency.latency.p50)}, p99 ${ms(latency.latency.p99)}, p999 ${ms(latency.latency.p999)}, ` +
        `max ${ms(latency.latency.max)}; ${latency.lost} lost of ${num(latency.sent)}`,
    );

    const withBreaker = await this.latencyWithBreaker(driver, cpu, probeBacklog);
    const auditUnderLoad = await this.auditUnderLoad(driver, cpu, probeBacklog);

    const steps: StepResult[] = [];
    for (const rate of options.steps) {
      await sleep(PAUSE_BETWEEN_PHASES_MS);
      const name = `throughput step ${num(rate)}/s for ${options.stepDurationS} s`;
      const measured = await this.withServiceFigures(() =>
        driver.openLoop({
          label: `step-${rate}`,
          rate,
          durationS: options.stepDurationS,
          // Two seconds of offered load waiting for decisions: clearly not sustained, stop adding more.
          maxBacklog: Math.max(1_000, rate * 2),
          status: status(name),
          cpu,
          probeBacklog,
        }),
      );
      const step = judgeStep(measured);
      steps.push(step);
      progress.note(
        `step ${num(rate)}/s: decided ${num(step.decidedPerSecond)}/s, p99 ${ms(step.latency.p99)}, ${step.lost} lost, backlog ${step.backlogAtEnd}: ` +
          (step.sustained ? 'sustained' : `NOT sustained (${step.why.join('; ')})`),
      );
      if (!step.sustained) break;
    }

    let closedLoop: LoadResult | undefined;
    if (options.closedInFlight > 0) {
      await sleep(PAUSE_BETWEEN_PHASES_MS);
      const name = `closed loop ${options.closedInFlight}/session in flight for ${options.closedDurationS} s`;
      closedLoop = await this.withServiceFigures(() =>
        driver.closedLoop({ label: 'closed', perSession: options.closedInFlight, durationS: options.closedDurationS, status: status(name), cpu }),
      );
      progress.note(`closed loop: ${num(closedLoop.decidedPerSecond)}/s decided, p99 ${ms(closedLoop.latency.p99)}, ${closedLoop.lost} lost`);
    }

    await sleep(PAUSE_BETWEEN_PHASES_MS);
    const wholeSuite = await measureWholeSuite({
      options,
      progress,
      env,
      jsm: this.bus.jsm,
      driver,
      cpu,
      probeBacklog,
      withServiceFigures: (phase) => this.withServiceFigures(phase),
      disconnectAgents: async () => {
        await Promise.all(this.clients.map((c) => c.close()));
        this.clients.length = 0;
      },
    });

    progress.phase('stopping');
    const figures = { requestReply, jetstream, latency, steps, review, reviewCel, breaker: { inProcess: breakerTime, withBreaker }, patterns: patternTime, audit: { ingest: auditIngest, underLoad: auditUnderLoad }, gateRelay, ...(closedLoop ? { closedLoop } : {}) };
    const targets = [
      ...evaluateTargets(figures, options.rate),
      ...evaluateRatioTargets(figures, wholeSuite),
      {
        name: `console first render, ${num(consoleRender.sessions)} live sessions`,
        target: `<= ${num(consoleRender.targetMs)} ms`,
        value: ms(consoleRender.firstFrameWithRowsMs.p50),
        met: consoleRender.met,
      },
    ];
    const ratioFigures = ratios(figures);
    const serviceLogs = Object.fromEntries(env.services.map((s) => [s.app, s.logs]));
    await this.shutdown();
    const finishedAt = new Date();

    const results = {
      schema: 'warden-bench/1',
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationS: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1),
      machine,
      parameters: {
        ...options,
        actionMix: ACTION_MIX.map((t) => ({ name: t.name, weight: t.weight, tool: t.tool, input: t.input(0), expected: t.allowed ? 'allow' : 'deny' })),
        payloadBytes: payload.byteLength,
        services: ['reviewer', 'gate'],
        sustainedWhen:
          'no decision lost or rejected; decisions/s from the first proposal to the last decision >= 95% of offered; ' +
          'proposals without a decision at the step end <= offered/4 (a quarter second of load)',
        latencyMeasuredAs: 'propose() call to the decision, in the agent process (performance.now)',
      },
      targets: {
        latencyP99Ms: TARGETS.latencyP99Ms,
        latencyRate: TARGETS.latencyRate,
        sustainedRate: TARGETS.sustainedRate,
        reviewP99Ms: TARGETS.reviewP99Ms,
        reviewCustomRules: TARGETS.reviewCustomRules,
        results: targets,
        allMet: targets.every((t) => t.met),
      },
      baselines: {
        requestReply: { ...requestReply, rtt: roundSummary(requestReply.rtt), perSecond: round(requestReply.perSecond, 1) },
        jetstream: {
          ...jetstream,
          acksPerSecond: round(jetstream.acksPerSecond, 1),
          durationS: round(jetstream.durationS),
          sequentialRtt: roundSummary(jetstream.sequentialRtt),
          windowedRtt: roundSummary(jetstream.windowedRtt),
        },
      },
      warmup: tidy(warmup),
      latency: tidy(latency),
      throughput: {
        steps: steps.map(tidy),
        sustained: (() => {
          const best = sustainedStep(steps);
          return best
            ? { offeredRate: best.offeredRate, decidedPerSecond: round(best.decidedPerSecond, 1), p99Ms: round(best.latency.p99), lost: best.lost }
            : null;
        })(),
        ...(closedLoop ? { closedLoop: tidy(closedLoop) } : {}),
      },
      ratios: ratioFigures,
      review: { ...review, shareOfRoundTrip: reviewerShare(figures) },
      reviewCel,
      gateRelay,
      hooks,
      console: consoleRender,
      patterns: patternTime,
      audit: { ingest: auditIngest, underLoad: { ...auditUnderLoad, latency: tidy(auditUnderLoad.latency) } },
      wholeSuite: { services: wholeSuite.services, latency: tidy(wholeSuite.latency), hook: wholeSuite.hook, messagesPerAction: wholeSuite.messages, cpuPerAction: wholeSuite.cpuPerAction, idle: wholeSuite.idle },
      breaker: {
        inProcess: breakerTime,
        latencyWithBreaker: tidy(withBreaker),
        addedP50Ms: round(withBreaker.latency.p50 - latency.latency.p50),
        addedP99Ms: round(withBreaker.latency.p99 - latency.latency.p99),
      },
      serviceWarnings: Object.fromEntries(
        Object.entries(serviceLogs).map(([app, logs]) => [app, logs.split('\n').filter((l) => /"level":(40|50|60)/.test(l)).slice(0, 20)]),
      ),
    };
    mkdirSync(options.outDir, { recursive: true });
    const json = `${JSON.stringify(results, null, 2)}\n`;
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    writeFileSync(join(options.outDir, 'latest.json'), json);
    writeFileSync(join(options.outDir, `bench-${stamp}.json`), json);

    const out = [
      '',
      `Warden benchmark ${startedAt.toISOString()}${options.quick ? ' (QUICK smoke run: figures not representative)' : ''}`,
      `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.platform} ${machine.kernel}, node ${machine.node}, ${machine.natsServer}` +
        `${machine.gitCommit ? `, commit ${machine.gitCommit}${machine.gitDirty ? ' (dirty)' : ''}` : ''}`,
      `Setup: one nats-server (production config, ${options.partitions} partitions, file store in a temp dir), reviewer + gate as processes, ` +
        `${options.sessions} sessions over ${options.agents} agent connections, load generator in this process on the same machine.`,
      `Payload: ${payload.byteLength} bytes (an action message) for both baselines; decision timeout ${num(options.decisionTimeoutMs)} ms.`,
      '',
      renderReport(figures, targets, ratioFigures, options),
      '',
      ...hookLines(hooks),
      consoleLine(consoleRender),
      ...wholeSuiteLines(wholeSuite),
      `Targets: ${targets.map((t) => `${t.name} ${t.target}: ${t.value} -> ${t.met ? 'met' : 'NOT met'}`).join('; ')}`,
      `Results: ${join(options.outDir, 'latest.json')} (and bench-${stamp}.json)`,
      '',
    ].join('\n');
    process.stdout.write(out);
    return options.strict && !targets.every((t) => t.met) ? 1 : 0;
  }

  /** `--hooks-only`: nats-server, reviewer and gate, then the hook phase alone. */
  private async hooksOnly(startedAt: Date, machine: ReturnType<typeof machineInfo>): Promise<number> {
    const { env, options, progress } = this;
    await env.startNats();
    await env.provision();
    for (const app of ['reviewer', 'gate']) await env.startService(app);
    const agent = env.agent(0);
    this.clients.push(await WardenClient.connect({ servers: env.url, agentId: agent.agentId, password: agent.password, decisionTimeoutMs: options.decisionTimeoutMs }));
    const hooks = await runHookPhase(env, progress, this.clients[0]!, options);
    await this.shutdown();
    return writeHooksOnly(options, startedAt, machine, hooks);
  }

  /**
   * The latency phase again with the breaker running beside the decision path: it consumes every
   * action and keeps its ledger in KV, and the reviewer reads its state. The breaker starts from new
   * messages (its consumers are recreated so), not by replaying the phases before it, and stops after.
   */
  private async latencyWithBreaker(driver: LoadDriver, cpu: CpuMeter, probeBacklog: () => Promise<BacklogProbe>): Promise<LoadResult> {
    const { options, progress, env } = this;
    await sleep(PAUSE_BETWEEN_PHASES_MS);
    progress.phase('starting breaker');
    await startFromNewMessages(this.bus!.jsm, 'breaker', this.options.partitions);
    const configPath = join(env.logDir, 'breakers.yaml');
    writeFileSync(configPath, BENCH_BREAKER_CONFIG);
    const breaker = await env.startService('breaker', { BREAKER_CONFIG: configPath });
    progress.note(`breaker ready at ${breaker.url} (pid ${breaker.pid})`);
    const status = (name: string) => (s: Parameters<Progress['phase']>[1]) => progress.phase(name, s);
    const maxBacklog = Math.max(1_000, options.rate * 2);
    const warm = `breaker warm-up ${num(options.rate)}/s for ${Math.min(5, options.warmupS)} s`;
    await driver.openLoop({ label: 'breaker-warmup', rate: options.rate, durationS: Math.min(5, options.warmupS), maxBacklog, status: status(warm) });
    await sleep(PAUSE_BETWEEN_PHASES_MS);
    const name = `latency with the breaker ${num(options.rate)}/s for ${options.durationS} s`;
    const measured = await this.withServiceFigures(() =>
      driver.openLoop({ label: 'latency-with-breaker', rate: options.rate, durationS: options.durationS, maxBacklog, status: status(name), cpu, probeBacklog }),
    );
    progress.note(
      `latency with the breaker @ ${num(options.rate)}/s: p50 ${ms(measured.latency.p50)}, p99 ${ms(measured.latency.p99)}; ${measured.lost} lost of ${num(measured.sent)}`,
    );
    progress.phase('stopping breaker');
    await breaker.stop();
    return measured;
  }

  /**
   * The latency phase's load once more with the audit service persisting everything into a real
   * PostgreSQL beside the decision path: how far behind the audit log runs under that load (from each
   * event's timestamp to its row), and what it costs the decision path. Audit starts from new messages.
   */
  private async auditUnderLoad(
    driver: LoadDriver,
    cpu: CpuMeter,
    probeBacklog: () => Promise<BacklogProbe>,
  ): Promise<{ latency: LoadResult; ingest: IngestLagFigures; drainedMs: number }> {
    const { options, progress, env } = this;
    await sleep(PAUSE_BETWEEN_PHASES_MS);
    progress.phase('starting PostgreSQL and audit');
    await startFromNewMessages(this.bus!.jsm, 'audit', this.options.partitions);
    const postgres = await TestPostgres.start();
    try {
      const databaseUrl = await postgres.createDatabase('warden_bench_audit');
      const audit = await env.startService('audit', { DATABASE_URL: databaseUrl });
      progress.note(`audit ready at ${audit.url} (pid ${audit.pid}), PostgreSQL on 127.0.0.1:${postgres.port}`);
      const maxBacklog = Math.max(1_000, options.rate * 2);
      const name = `latency with audit ${num(options.rate)}/s for ${options.durationS} s`;
      const since = new Date();
      const latency = await this.withServiceFigures(() =>
        driver.openLoop({ label: 'latency-with-audit', rate: options.rate, durationS: options.durationS, maxBacklog, status: (s) => progress.phase(name, s), cpu, probeBacklog }),
      );
      progress.phase('audit catching up');
      const drainStarted = performance.now();
      while ((await pendingFor(this.bus!.jsm, 'audit', this.options.partitions)) > 0 && performance.now() - drainStarted < 60_000) await sleep(200);
      const drainedMs = Math.round(performance.now() - drainStarted);
      const ingest = await ingestLagSince(databaseUrl, since);
      progress.note(
        `audit under ${num(options.rate)}/s actions: ${num(ingest.events)} events persisted, ${num(ingest.persistedPerSecond)}/s, ` +
          `ingest lag p50 ${ms(ingest.lagP50Ms)}, p99 ${ms(ingest.lagP99Ms)}, max ${ms(ingest.lagMaxMs)}; decision p99 ${ms(latency.latency.p99)}`,
      );
      progress.phase('stopping audit');
      await audit.stop();
      return { latency, ingest, drainedMs };
    } finally {
      await postgres.destroy();
    }
  }

  /** Runs a load phase between two reads of the services' own metrics. */
  private async withServiceFigures(phase: () => Promise<LoadResult>): Promise<LoadResult> {
    const scrapeAll = () => Promise.all(this.env.services.map(async (s) => [s.app, await scrapeService(s.url)] as const));
    const before = await scrapeAll();
    const result = await phase();
    const after = await scrapeAll();
    const services: Record<string, ServicePhaseFigures> = {};
    for (const [app, a] of after) {
      const b = before.find(([name]) => name === app)?.[1];
      if (a && b) services[app] = phaseFigures(b, a);
    }
    return { ...result, services };
  }

  /** Unacknowledged messages of the reviewer's action consumers and the gate's verdict consumers. */
  private async probeBacklog(): Promise<BacklogProbe> {
    const jsm = this.bus!.jsm;
    const sum = async (service: 'reviewer' | 'gate', channel: 'action' | 'verdict') => {
      const infos = await Promise.all(
        Array.from({ length: this.options.partitions }, (_, p) => jsm.consumers.info(streamName(channel), consumerName(service, channel, p))),
      );
      return infos.reduce((total, info) => total + info.num_pending + info.num_ack_pending, 0);
    };
    const [reviewerPending, gatePending] = await Promise.all([sum('reviewer', 'action'), sum('gate', 'verdict')]);
    return { reviewerPending, gatePending };
  }
}

async function main(): Promise<number> {
  let options: BenchOptions | 'help';
  try {
    options = parseOptions(process.argv.slice(2), WORKSPACE_ROOT);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\nRun with --help for the options.\n`);
      return 2;
    }
    throw error;
  }
  if (options === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }

  const bench = new Bench(options);
  // A closed pipe (e.g. `| head`) must not crash the run before it has stopped what it started.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  let signals = 0;
  const stop = (code: number, why: string) => {
    if (++signals > 1) {
      process.stderr.write('\nkilling the processes this benchmark started\n');
      bench.killNow();
      process.exit(code);
    }
    process.stderr.write(`\n${why}: stopping the processes this benchmark started (again to kill them)\n`);
    void bench.shutdown().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => stop(130, 'interrupted'));
  process.on('SIGTERM', () => stop(143, 'terminated'));
  process.on('SIGHUP', () => stop(129, 'hung up'));
  process.on('uncaughtException', (error) => stop(1, `unexpected error: ${error.stack ?? error.message}`));
  process.on('unhandledRejection', (error) => stop(1, `unexpected error: ${(error as Error)?.stack ?? String(error)}`));
  // Last line of defence: whatever ends the process, no child outlives it.
  process.on('exit', () => bench.killNow());
  const budget = timeBudgetMs(options);
  const watchdog = setTimeout(() => stop(1, `the run took longer than ${Math.round(budget / 1000)} s`), budget);
  watchdog.unref();

  const started = performance.now();
  try {
    return await bench.run();
  } catch (error) {
    process.stderr.write(`\nbenchmark failed after ${((performance.now() - started) / 1000).toFixed(1)} s: ${(error as Error).stack ?? error}\n`);
    return 1;
  } finally {
    clearTimeout(watchdog);
    await bench.shutdown();
  }
}

process.exit(await main());
