import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** apps/console/ (this file is apps/console/{src,dist}/http/assets.*). */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Asset {
  name: string;
  type: string;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/**
 * The page's script (the ES modules built from src/client into dist/client) and its stylesheet, read
 * and compressed once at start. Source maps are not served.
 */
export function loadAssets(root = CONSOLE_ROOT): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  const add = (name: string, type: string, body: Buffer) =>
    assets.set(name, { name, type, body, gzipped: gzipSync(body, { level: 9 }), etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"` });
  const client = join(root, 'dist', 'client');
  if (existsSync(client)) {
    for (const file of readdirSync(client).filter((f) => f.endsWith('.js'))) add(file, 'text/javascript; charset=utf-8', readFileSync(join(client, file)));
  }
  add('console.css', 'text/css; charset=utf-8', readFileSync(join(root, 'assets', 'console.css')));
  return assets;
}

/** What the browser downloads for a page: every script and the stylesheet, compressed. */
export function compressedSize(assets: Map<string, Asset>): number {
  return [...assets.values()].reduce((total, asset) => total + asset.gzipped.length, 0);
}
