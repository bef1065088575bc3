/**
 * The browser bundles' size: the REST-only one (content-service-simulator/msw/rest) against the
 * whole surface's (the msw handlers with createSimulator, MCP and zod included), both built the
 * same way (esbuild, minified, msw left to the page), gzipped at level 9. Sizes, not times: one
 * build each is exact.
 */
import { buildRestBundle, buildWholeBundle } from '../scripts/bundle-browser.js';

const whole = await buildWholeBundle();
const wholeGzip = whole.gzipBytes;
const rest = await buildRestBundle();
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
console.log('browser bundles (minified; gzipped at level 9; msw itself is the page\'s own import)');
console.log(`  whole surface (msw + createSimulator): ${kib(whole.bytes)}, ${kib(wholeGzip)} gzipped`);
console.log(`  REST only (msw/rest):                  ${kib(rest.bytes)}, ${kib(rest.gzipBytes)} gzipped (${(rest.gzipBytes / wholeGzip).toFixed(2)}× the whole; aim under 150 KB: ${rest.gzipBytes < 150_000 ? 'met' : 'NOT met'})`);
