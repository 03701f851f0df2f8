// Renders libs/contracts/asyncapi.yaml from the built contracts (run: nx run contracts:asyncapi).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { buildAsyncApiDocument } from '../dist/index.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'asyncapi.yaml');
const header = '# Generated from libs/contracts/src by `nx run contracts:asyncapi`. Do not edit by hand.\n';
writeFileSync(target, header + stringify(buildAsyncApiDocument(), { aliasDuplicateObjects: false, lineWidth: 0 }));
console.log(`wrote ${target}`);
