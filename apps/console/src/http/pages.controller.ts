import { Controller, Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isSubjectToken } from '@warden/contracts';
import { OperatorAuthenticator } from '@warden/operator-auth';
import { buildCausalGraph } from '../domain/causal-graph.js';
import { sessionKey } from '../domain/console-event.js';
import { SessionBoard } from '../domain/session-board.js';
import { explainRequestOf } from '../domain/explain-request.js';
import { GateClient } from '../live/gate-client.js';
import { ReviewerClient } from '../live/reviewer-client.js';
import { SupervisorLog } from '../live/supervisor-log.js';
import { actionBody } from '../views/action-view.js';
import { agentsBody } from '../views/agents-view.js';
import { approvalMissingBody, approvalPageBody, type GateRequestView } from '../views/approval-page-view.js';
import { approvalsBody } from '../views/approvals-view.js';
import { html } from '../views/html.js';
import { layout } from '../views/layout.js';
import { sessionBody, sessionFragments } from '../views/session-view.js';
import { sessionsBody } from '../views/sessions-view.js';
import { can, pageContext, pageOperator } from './page-auth.js';
import { sendHtml } from './respond.js';

/** The pages (sessions, approvals and one approval request, agents, a session), rendered on the server from the board; each then follows its live stream. */
@Controller()
export class PagesController {
  constructor(
    private readonly board: SessionBoard,
    @Inject(OperatorAuthenticator) private readonly authenticator: OperatorAuthenticator,
    private readonly gate: GateClient,
    private readonly reviewer: ReviewerClient,
    private readonly supervisor: SupervisorLog,
  ) {}

  /** The agents the console knows of a session, and the one the page is about (named, or the only one). */
  private agentOf(sessionId: string, agent: string | undefined): { agents: string[]; agentId: string | undefined } {
    const agents = isSubjectToken(sessionId) ? this.board.keysOf(sessionId).map((key) => this.board.summary(key)!.agent_id) : [];
    const agentId = typeof agent === 'string' && isSubjectToken(agent) ? agent : agents.length === 1 ? agents[0] : undefined;
    return { agents, agentId };
  }

  @Get()
  async sessions(@Req() req: Request, @Res() res: Response, @Query('status') status?: string, @Query('q') q?: string): Promise<void> {
    const auth = await pageOperator(this.authenticator, req, res);
    if (!auth) return;
    // Read before the board: what changes after it reaches the page through its stream.
    const version = this.board.version;
    const filter = { ...(typeof status === 'string' ? { status } : {}), ...(typeof q === 'string' ? { q: q.slice(0, 200) } : {}) };
    const body = sessionsBody(this.board.list(), filter, this.supervisor.byService());
    sendHtml(req, res, layout(pageContext(auth, this.board.approvals().length), { title: 'Sessions', name: 'sessions', live: `/events?page=sessions&since=${version}`, body }));
  }

  @Get('approvals')
  async approvals(@Req() req: Request, @Res() res: Response): Promise<void> {
    const auth = await pageOperator(this.authenticator, req, res);
    if (!auth) return;
    // Read before the board: what changes after it reaches the page through its stream.
    const version = this.board.version;
    const approvals = this.board.approvals();
    const body = approvalsBody(approvals, can(auth, 'decide'));
    sendHtml(req, res, layout(pageContext(auth, approvals.length), { title: 'Approvals', name: 'approvals', live: `/events?page=approvals&since=${version}`, body }));
  }

  /** One request of a human gate, read from the gate as the operator: the page a Slack or webhook link opens. */
  @Get('approvals/:request_id')
  async approval(@Param('request_id') requestId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const auth = await pageOperator(this.authenticator, req, res);
    if (!auth) return;
    const ctx = pageContext(auth, this.board.approvals().length);
    const found = /^[A-Za-z0-9_-]{1,128}$/.test(requestId) ? await this.gate.request(requestId, { id: auth.operator.id, token: auth.token }) : { status: 404, body: {} };
    if (found.status !== 200) {
      const status = found.status === 404 ? 404 : 502;
      sendHtml(req, res, layout(ctx, { title: 'Approval', name: 'approval', live: '', body: approvalMissingBody(requestId, found.status, String(found.body.reason ?? 'error')) }), status);
      return;
    }
    const request = found.body as unknown as GateRequestView;
    sendHtml(req, res, layout(ctx, { title: `Approve ${request.details.action?.tool ?? request.gate_id}`, name: 'approval', live: '', body: approvalPageBody(request, can(auth, 'decide')) }));
  }

  @Get('agents')
  async agents(@Req() req: Request, @Res() res: Response): Promise<void> {
    const auth = await pageOperator(this.authenticator, req, res);
    if (!auth) return;
    // Read before the board: what changes after it reaches the page through its stream.
    const version = this.board.version;
    const body = agentsBody(this.board.agents(), can(auth, 'administer'));
    sendHtml(req, res, layout(pageContext(auth, this.board.approvals().length), { title: 'Agents', name: 'agents', live: `/events?page=agents&since=${version}`, body }));
  }

  @Get('sessions/:session_id')
  async session(@Param('session_id') sessionId: string, @Req() req: Request, @Res() res: Response, @Query('agent') agent?: string): Promise<void> {
    const auth = await pageOperator(this.authenticator, req, res);
    if (!auth) return;
    // Read before the board: what changes after it reaches the page through its stream.
    const version = this.board.version;
    const ctx = pageContext(auth, this.board.approvals().length);
    const { agents, agentId } = this.agentOf(sessionId, agent);
    const summary = agentId ? this.board.summary(sessionKey(agentId, sessionId)) : undefined;
    if (!summary) {
      const body = agents.length
        ? html`<h1>${sessionId}</h1><p>This session has several agents: ${agents.map((a) => html`<a href="/sessions/${encodeURIComponent(sessionId)}?agent=${encodeURIComponent(a)}">${a}</a> `)}</p>`
        : html`<h1>Unknown session</h1><p>The console has seen nothing of ${sessionId}${agentId ? html` (agent ${agentId})` : ''} in its history window.</p><p><a href="/">← Sessions</a></p>`;
      sendHtml(req, res, layout(ctx, { title: sessionId, name: 'session', live: '', body }), agents.length ? 200 : 404);
      return;
    }
    const key = summary.key;
    const fragments = sessionFragments(summary, buildCausalGraph(this.board.events(key)), this.board.approval(key), can(auth, 'decide'));
    const live = `/events?page=session&session=${encodeURIComponent(summary.session_id)}&agent=${encodeURIComponent(summary.agent_id)}&since=${version}`;
    sendHtml(req, res, layout(ctx, { title: `${summary.session_id} (${summary.agent_id})`, name: 'session', live, body: sessionBody(fragments) }));
  }

  /** One action and "Why this verdict": the reviewer's explanation, asked for as the operator. */
  @Get('sessions/:session_id/actions/:action_id')
  async action(@Param('session_id') sessionId: string, @Param('action_id') actionId: string, @Req() req: Request, @Res() res: Response, @Query('agent') agent?: string): Promise<void> {
    const auth = await pageOperator(this.authenticator, req, res);
    if (!auth) return;
    const ctx = pageContext(auth, this.board.approvals().length);
    const { agentId } = this.agentOf(sessionId, agent);
    const explainable = agentId && isSubjectToken(actionId) ? explainRequestOf(this.board.events(sessionKey(agentId, sessionId)), agentId, sessionId, actionId) : undefined;
    if (!agentId || !explainable) {
      const body = html`<h1>Unknown action</h1><p>The console has seen no action ${actionId} in session ${sessionId}${agentId ? html` (agent ${agentId})` : ''} in its history window.</p><p><a href="/">← Sessions</a></p>`;
      sendHtml(req, res, layout(ctx, { title: actionId, name: 'action', live: '', body }), 404);
      return;
    }
    const answer = await this.reviewer.explain(explainable.body, { id: auth.operator.id, token: auth.token });
    sendHtml(req, res, layout(ctx, { title: `Why ${actionId}`, name: 'action', live: '', body: actionBody(agentId, sessionId, actionId, explainable, answer) }));
  }
}
