import { Controller, Get, NotFoundException, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { loadAssets, type Asset } from './assets.js';

/** The script and stylesheet: public (they hold no data), compressed, revalidated by ETag. */
@Controller('assets')
export class AssetsController {
  private readonly assets: Map<string, Asset> = loadAssets();

  @Get(':name')
  asset(@Param('name') name: string, @Req() req: Request, @Res() res: Response): void {
    const asset = this.assets.get(name);
    if (!asset) throw new NotFoundException({ status: 'error', reason: 'unknown_asset' });
    res.setHeader('content-type', asset.type);
    res.setHeader('etag', asset.etag);
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('vary', 'accept-encoding');
    if (req.headers['if-none-match'] === asset.etag) {
      res.status(304).end();
      return;
    }
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.setHeader('content-encoding', 'gzip');
      res.end(asset.gzipped);
    } else res.end(asset.body);
  }
}
