import { compressedSize, loadAssets } from '../src/http/assets.js';

/** What a page downloads besides its HTML: the built client modules and the stylesheet (nx builds them first). */
describe('page assets', () => {
  const assets = loadAssets();

  it('include every module the script imports, and nothing it would fetch from elsewhere', () => {
    const app = assets.get('app.js')!.body.toString();
    const imports = [...app.matchAll(/from '\.\/([\w-]+\.js)'/g)].map((m) => m[1]!);
    expect(imports.length).toBeGreaterThan(0);
    for (const name of imports) expect(assets.has(name)).toBe(true);
    for (const asset of assets.values()) expect(asset.body.toString()).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('weigh at most 300 KB compressed, JavaScript and CSS together', () => {
    const size = compressedSize(assets);
    console.log(`console assets: ${assets.size} files, ${[...assets.values()].reduce((t, a) => t + a.body.length, 0)} bytes, ${size} bytes gzipped`);
    expect(size).toBeLessThanOrEqual(300 * 1024);
  });
});
