import { BadRequestException, Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { OperatorAuthGuard } from '@warden/operator-auth';
import { explainInSessionPausing, InvalidExplainRequest, parseExplainRequest, type SessionExplanation } from '@warden/review';
import { StepReviewerHost } from './step-reviewer.host.js';

/**
 * `POST /review/explain`: why the running policy gives an action its verdict (the console's "Why this
 * verdict"). The body is the action and its session's messages before it; a reviewer of its own, built
 * from the policy this replica runs, replays them and reviews the action with a recorder. The live sessions
 * are not touched, so any replica answers alike. An operator's token is needed (a viewer may read).
 */
@Controller('review')
@UseGuards(OperatorAuthGuard)
export class ExplainController {
  constructor(private readonly host: StepReviewerHost) {}

  @Post('explain')
  @HttpCode(200)
  async explain(@Body() body: unknown): Promise<SessionExplanation> {
    let request;
    try {
      request = parseExplainRequest(body);
    } catch (error) {
      if (error instanceof InvalidExplainRequest) throw new BadRequestException({ status: 'error', reason: `invalid_request: ${error.message}` });
      throw error;
    }
    // The replay yields to the event loop as it goes: this replica's reviews go on meanwhile.
    return explainInSessionPausing({ ...request, sources: this.host.policy }, () => new Promise((resolve) => setImmediate(resolve)));
  }
}
