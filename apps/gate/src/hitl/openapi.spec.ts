import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { GateRequestsController } from '../human-gates/gate-requests.controller.js';
import { SlackInteractionsController } from '../approvals/slack-interactions.controller.js';
import { HitlController } from './hitl.controller.js';
import { OpenApiController } from './openapi.controller.js';
import { OPENAPI_DOCUMENT } from './openapi.js';

/** The routes the controllers declare, as `METHOD /path/{param}`. */
function routes(...controllers: (new (...args: never[]) => unknown)[]): string[] {
  const found: string[] = [];
  for (const controller of controllers) {
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string;
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name];
      if (typeof handler !== 'function' || name === 'constructor') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number]!;
      const full = `/${[prefix, path].filter((p) => p && p !== '/').join('/')}`.replace(/:([a-z_]+)/g, '{$1}');
      found.push(`${method} ${full}`);
    }
  }
  return found.sort();
}

describe('OpenAPI document of the operator API', () => {
  it('describes exactly the routes the controllers serve', () => {
    const documented = Object.entries(OPENAPI_DOCUMENT.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(routes(HitlController, GateRequestsController, SlackInteractionsController, OpenApiController));
  });

  it('documents the FR-11.5 status codes of the four commands', () => {
    for (const command of ['pause', 'unpause', 'rewrite', 'inject']) {
      const operation = OPENAPI_DOCUMENT.paths[`/gateway/sessions/{session_id}/${command}` as keyof typeof OPENAPI_DOCUMENT.paths] as { post: { responses: Record<string, unknown> } };
      expect(Object.keys(operation.post.responses)).toEqual(expect.arrayContaining(['200', '401', '422']));
    }
  });
});
