import { OPERATOR_ID_HEADER } from '@warden/contracts';
import type { ExplainBody } from '../domain/explain-request.js';

const CALL_TIMEOUT_MS = 30_000;

/** The reviewer's answer: its explanation (200), or why not (`reason`). */
export interface ExplainAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The console's side of the reviewer's `POST /review/explain`, called as the logged-in operator (their
 * login token as the bearer, X-Observatory-Operator-Id naming them), as the console calls the gate.
 */
export class ReviewerClient {
  constructor(private readonly reviewerUrl: string) {}

  async explain(body: ExplainBody, operator: { id: string; token: string }): Promise<ExplainAnswer> {
    try {
      const response = await fetch(`${this.reviewerUrl}/review/explain`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${operator.token}`, [OPERATOR_ID_HEADER]: operator.id },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const text = await response.text();
      try {
        return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
      } catch {
        return { status: response.status, body: { status: 'error', reason: text.slice(0, 200) } };
      }
    } catch (error) {
      return { status: 503, body: { status: 'error', reason: `reviewer_unreachable: ${(error as Error).message}` } };
    }
  }
}
