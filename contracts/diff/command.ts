/**
 * `content-contracts diff <old> <new> [--format text|json] [--fail-on breaking|warning]`:
 * tells whether a new version of the contract breaks clients of the old one. Exits 1 when
 * it does (or warns, with `--fail-on warning`), 0 when it does not, 2 on a usage error.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Change, DiffResult } from './changes.js';
import { diffDocuments } from './operations-diff.js';

export const DIFF_USAGE = `Usage: content-contracts diff <old.yaml> <new.yaml> [options]

Lists what a new version of an OpenAPI document changes for clients of the old one:
breaking changes (a removed operation, parameter, response field, status or header; a
narrowed type, format, enum or bound; a new required field; a tightened rate limit),
warnings and compatible changes.

Options:
  --format text|json       output (default text)
  --fail-on breaking|warning
                           exit 1 on a breaking change (default), or on a warning too
  --help                   this text`;

interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultOutput: Output = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

export function runDiffCommand(argv: string[], io: Output = defaultOutput): number {
  const files: string[] = [];
  let format = 'text';
  let failOn = 'breaking';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      io.out(`${DIFF_USAGE}\n`);
      return 0;
    }
    if (arg === '--format' || arg === '--fail-on') {
      const value = argv[++i];
      const allowed = arg === '--format' ? ['text', 'json'] : ['breaking', 'warning'];
      if (!value || !allowed.includes(value)) return usage(io, `${arg} takes ${allowed.join(' or ')}`);
      if (arg === '--format') format = value;
      else failOn = value;
    } else if (arg.startsWith('-')) return usage(io, `unknown option ${arg}`);
    else files.push(arg);
  }
  if (files.length !== 2) return usage(io, 'give two files: the old contract and the new one');
  let documents: Record<string, any>[];
  try {
    documents = files.map(readDocument);
  } catch (e) {
    io.err(`content-contracts diff: ${(e as Error).message}\n`);
    return 2;
  }
  const result = diffDocuments(documents[0] as Record<string, any>, documents[1] as Record<string, any>);
  io.out(format === 'json' ? `${JSON.stringify(result, null, 2)}\n` : formatText(result));
  return result.breaking > 0 || (failOn === 'warning' && result.warnings > 0) ? 1 : 0;
}

function readDocument(file: string): Record<string, any> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new Error(`${file} is not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object' || !('paths' in doc)) throw new Error(`${file} is not an OpenAPI document (no paths)`);
  return doc as Record<string, any>;
}

export function formatText(result: DiffResult): string {
  const line = (c: Change) => `${c.severity.toUpperCase().padEnd(10)} ${c.rule.padEnd(36)} ${c.operation}: ${c.location}: ${c.message}`;
  const body = result.changes.map(line).join('\n');
  const verdict = result.breaking > 0 ? 'breaks existing clients' : 'compatible with existing clients';
  return `${body}${body ? '\n' : ''}diff: ${result.breaking} breaking, ${result.warnings} warnings, ${result.compatible} compatible: ${verdict}\n`;
}

function usage(io: Output, message: string): number {
  io.err(`content-contracts diff: ${message}\n\n${DIFF_USAGE}\n`);
  return 2;
}
