import { Injectable, PayloadTooLargeException, BadRequestException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { boundedNesting } from '@warden/operator-auth';
import express, { type NextFunction, type Request, type Response } from 'express';

/** Where the operator API lives; its bodies are read by the controllers, after the operator check. */
export const GATEWAY_PREFIX = '/gateway/';
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Nest parses JSON bodies for every route before guards run, so a malformed body would be refused
 * before a missing operator id. FR-11.6 wants the operator checked first: this registers the JSON and
 * form parsers under the names Nest looks for (it then skips its own) and lets them leave the operator
 * API alone; its controllers read the body themselves with readJsonBody once OperatorGuard passed.
 */
@Injectable()
export class GatewayBodyParsing {
  constructor(adapterHost: HttpAdapterHost) {
    const app = adapterHost.httpAdapter?.getInstance<express.Express>();
    if (!app || typeof app.use !== 'function') return;
    const json = express.json();
    const urlencoded = express.urlencoded({ extended: true });
    function jsonParser(req: Request, res: Response, next: NextFunction): void {
      if (req.path.startsWith(GATEWAY_PREFIX)) next();
      else json(req, res, next);
    }
    function urlencodedParser(req: Request, res: Response, next: NextFunction): void {
      if (req.path.startsWith(GATEWAY_PREFIX)) next();
      else urlencoded(req, res, next);
    }
    app.use(jsonParser);
    app.use(urlencodedParser);
  }
}

/** Reads a JSON body of the operator API: `{}` when empty, 400 `invalid_json` or `body_too_deep` (over MAX_BODY_NESTING levels), 413 `payload_too_large`. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new PayloadTooLargeException({ status: 'error', reason: 'payload_too_large' });
    chunks.push(chunk);
  }
  const buffer = Buffer.concat(chunks);
  try {
    // What an operator sends is a few levels deep: a deeper body is refused before it is parsed.
    boundedNesting(undefined, undefined, buffer);
  } catch (error) {
    throw new BadRequestException({ status: 'error', reason: 'body_too_deep', detail: (error as Error).message });
  }
  const text = buffer.toString('utf8').trim();
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestException({ status: 'error', reason: 'invalid_json' });
  }
}
