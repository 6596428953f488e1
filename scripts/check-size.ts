// CI gate: fails when `import { Client } from 'lunas'` costs more than the
// gzip budget in a merchant's bundle. Same bundling as `npm run bench`.
import { GZIP_BUDGET_BYTES, bundleClient, ensureBuilt } from '../bench/bundle.js';

ensureBuilt();
const { gzipBytes, minifiedBytes, nodeBuiltins } = await bundleClient();
const verdict = gzipBytes <= GZIP_BUDGET_BYTES ? 'within' : 'OVER';
console.log(
  `lunas bundle (Client, esbuild minified, gzip -9): ${gzipBytes} bytes gzip, ${minifiedBytes} minified; ` +
    `${verdict} the ${GZIP_BUDGET_BYTES}-byte budget`,
);
if (nodeBuiltins.length > 0) console.log(`node built-ins imported: ${nodeBuiltins.join(', ')}`);
if (gzipBytes > GZIP_BUDGET_BYTES) process.exit(1);
