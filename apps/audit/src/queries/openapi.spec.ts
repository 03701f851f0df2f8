import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { AuditQueryController } from './audit-query.controller.js';
import { AuditOpenApiController } from './openapi.controller.js';
import { AUDIT_OPENAPI_DOCUMENT } from './openapi.js';

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
      found.push(`${method} /${[prefix, path].filter((p) => p && p !== '/').join('/')}`.replace(/:([a-z_]+)/g, '{$1}'));
    }
  }
  return found.sort();
}

describe('OpenAPI document of the audit API', () => {
  it('describes exactly the routes the controllers serve', () => {
    const documented = Object.entries(AUDIT_OPENAPI_DOCUMENT.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(routes(AuditQueryController, AuditOpenApiController));
  });
});
