import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** Pages carry session data: never cached, compressed when the browser takes gzip (1,000 rows ≈ 0.5 MB). */
export function sendHtml(req: Request, res: Response, text: string, status = 200): void {
  res.status(status);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('vary', 'accept-encoding');
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && text.length > 2048) {
    res.setHeader('content-encoding', 'gzip');
    res.end(gzipSync(text, { level: 4 }));
  } else res.end(text);
}

/**
 * Headers of every answer: no framing, no inline script or style (everything comes from /assets), no
 * sniffing, and no referrer leaving the console.
 */
export function securityHeaders(_req: Request, res: Response, next: () => void): void {
  res.setHeader(
    'content-security-policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'same-origin');
  next();
}
