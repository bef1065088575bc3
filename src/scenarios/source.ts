import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** A scenario read from text (YAML or JSON), and where each of its paths stands in that text. */
export interface ScenarioSource {
  value: unknown;
  /** `file:line:column` of a path such as `accounts[0].builds[2].status` (or its nearest parent), or the file alone. */
  locate(path: string): string;
  /** The line and column (from 1) where a path (or its nearest parent) stands, when the text says. */
  position(path: string): { line: number; column: number } | undefined;
}

const STEP = /([^.[\]]+)|\[(\d+)\]/g;

function steps(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.matchAll(STEP)) out.push(m[2] === undefined ? (m[1] as string) : Number(m[2]));
  return out;
}

/** Parses a scenario's text; a syntax error is thrown with its line. */
export function readScenarioText(text: string, file: string): ScenarioSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const at = lineCounter.linePos(error.pos[0]);
    throw new SyntaxError(`${file}:${at.line}:${at.col}: ${error.message.split('\n')[0]}`);
  }
  const position = (path: string) => {
    let node: unknown = doc.contents;
    let found = node as Node | null;
    for (const step of steps(path)) {
      if (isMap(node)) node = node.get(step, true);
      else if (isSeq(node) && typeof step === 'number') node = node.get(step, true);
      else break;
      if (!node) break;
      found = node as Node;
    }
    const offset = found?.range?.[0];
    if (offset === undefined) return undefined;
    const at = lineCounter.linePos(offset);
    return { line: at.line, column: at.col };
  };
  return {
    value: doc.toJS({ maxAliasCount: 100 }),
    position,
    locate(path) {
      const at = position(path);
      return at ? `${file}:${at.line}:${at.column}` : file;
    },
  };
}
