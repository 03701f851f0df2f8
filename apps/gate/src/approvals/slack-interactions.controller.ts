import { Controller, HttpCode, Inject, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { roleAllows, type OperatorStore } from '@warden/operator-auth';
import { LOGGER, type Logger } from '@warden/observability';
import type { Request, Response } from 'express';
import { CommandDispatcher } from '../core/command-dispatcher.js';
import { GatewayExceptionFilter } from '../core/gateway-errors.js';
import { GateStores } from '../core/gate-stores.js';
import { sendOutcome } from '../hitl/outcome.js';
import type { ApprovalSettings } from './approval-settings.js';
import { SlackChannel, slackSignatureProblem } from './slack-channel.js';

export const APPROVAL_SETTINGS = Symbol('warden.gate.approval-settings');
export const SLACK_CHANNELS = Symbol('warden.gate.slack-channels');
export const APPROVAL_OPERATORS = Symbol('warden.gate.approval-operators');

const MAX_BODY_BYTES = 64 * 1024;

interface BlockActions {
  type: string;
  user?: { id?: string };
  channel?: { id?: string };
  actions?: { action_id?: string; value?: string }[];
}

/**
 * Slack's interactivity Request URL (`POST /gateway/approvals/slack/<channel name>`): a click on
 * Approve or Reject. Slack's signature is checked before anything is read from the body; the Slack
 * user must map to a Warden operator with the approver role; the button carries the request and the
 * digest of what its message showed, and the answer goes to the gate like any operator's (refused
 * with 409 when the action changed since). A refused click is told to the user in Slack, only to them.
 */
@Controller('gateway/approvals/slack')
@UseFilters(GatewayExceptionFilter)
export class SlackInteractionsController {
  constructor(
    @Inject(SLACK_CHANNELS) private readonly channels: SlackChannel[],
    @Inject(APPROVAL_SETTINGS) private readonly settings: ApprovalSettings,
    @Inject(APPROVAL_OPERATORS) private readonly operators: OperatorStore,
    private readonly stores: GateStores,
    private readonly dispatcher: CommandDispatcher,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  @Post(':channel')
  @HttpCode(200)
  async interaction(@Param('channel') name: string, @Req() request: Request, @Res({ passthrough: true }) response: Response) {
    const refuse = (code: number, reason: string) => {
      response.status(code);
      return { status: 'error', reason };
    };
    const channel = this.channels.find((c) => c.name === name);
    if (!channel) return refuse(404, 'unknown_channel');
    let body: string;
    try {
      body = await rawBody(request);
    } catch {
      return refuse(413, 'payload_too_large');
    }
    const header = (h: string) => (typeof request.headers[h] === 'string' ? (request.headers[h] as string) : undefined);
    const problem = slackSignatureProblem(
      channel.settings.signingSecret,
      header('x-slack-request-timestamp'),
      header('x-slack-signature'),
      body,
      Math.floor(Date.now() / 1000),
      this.settings.delivery.slackToleranceS,
    );
    if (problem) {
      this.log.warn({ channel: name, reason: problem }, 'refused a Slack request');
      return refuse(401, problem);
    }
    let payload: BlockActions;
    try {
      payload = JSON.parse(new URLSearchParams(body).get('payload') ?? '') as BlockActions;
    } catch {
      return refuse(400, 'invalid_payload');
    }
    if (!payload || typeof payload !== 'object' || payload.type !== 'block_actions') return refuse(422, 'unsupported_interaction');
    const action = payload.actions?.[0];
    if (action?.action_id === 'open') return { status: 'ok' };
    if (action?.action_id !== 'approve' && action?.action_id !== 'reject') return refuse(422, 'unknown_action');
    const [requestId, digest] = String(action.value ?? '').split(':');
    if (!requestId || !/^[A-Za-z0-9_-]{1,128}$/.test(requestId) || !digest || !/^[a-f0-9]{64}$/.test(digest)) return refuse(422, 'invalid_field: value');
    const slackUser = payload.user?.id ?? '';
    const slackChannel = payload.channel?.id ?? channel.settings.channel;
    const tell = (text: string) => channel.tell(slackChannel, slackUser, text).catch((error: Error) => this.log.warn({ err: error, channel: name }, 'could not tell the Slack user'));

    const operatorId = channel.settings.users[slackUser];
    const operator = operatorId ? await this.operators.get(operatorId) : null;
    if (!operator || !roleAllows(operator.role, 'decide')) {
      this.log.warn({ channel: name, slack_user: slackUser, operator_id: operatorId ?? null, request_id: requestId }, 'refused a Slack click: not an approver');
      await tell(operatorId ? `Your Warden operator ${operatorId} may not approve (needs the approver role).` : 'You are not a Warden approver: ask an admin to map your Slack user to an operator.');
      return refuse(403, operatorId ? 'forbidden: the operator is not an approver' : 'unmapped_slack_user');
    }
    const record = await this.stores.requests.get(requestId);
    if (!record) return refuse(404, 'unknown_request');
    const outcome = await this.dispatcher.dispatch({
      type: 'hitl_unpause',
      session_id: record.session_id,
      agent_id: record.agent_id,
      operator_id: operator.id,
      timestamp: new Date().toISOString(),
      resolution: action.action_id === 'approve' ? 'approve' : 'reject',
      request_id: requestId,
      digest,
      channel: 'slack',
      ...(action.action_id === 'reject' ? { reason: `Rejected in Slack by ${operator.id}` } : {}),
    });
    if (outcome.status === 'error') {
      await tell(outcome.reason.startsWith('digest_mismatch') ? 'The action changed since this message was shown: nothing was approved. Look at the updated message.' : `Not taken: ${outcome.reason}`);
    }
    this.log.info({ channel: name, operator_id: operator.id, request_id: requestId, action: action.action_id, outcome: outcome.status }, 'Slack answer');
    return sendOutcome(outcome, response);
  }
}

async function rawBody(request: Request): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
