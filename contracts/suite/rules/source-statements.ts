/**
 * The statements of the suite's sources, read mechanically so that none can be left without a
 * rule: every statement of the specification (a list item, a table row, a sentence), and of
 * openapi.yaml every status and header declared per operation, every schema keyword (types,
 * formats, lengths, patterns, bounds, enums and each of their values, defaults, required
 * fields, closed objects) and every sentence of every description.
 */

export type SourceKind = 'spec' | 'openapi.status' | 'openapi.header' | 'openapi.keyword' | 'openapi.description';

export interface SourceStatement {
  kind: SourceKind;
  /** Stable within a version of the source: where it is and what it is. */
  id: string;
  /** The section (spec), or the operation or schema it belongs to (openapi.yaml). */
  where: string;
  text: string;
  /** openapi.yaml: a request's (what a client sends) or a response's (what a server answers). */
  side?: 'request' | 'response';
}

/** Every statement of the specification's Markdown, by section. */
export function specStatements(markdown: string): SourceStatement[] {
  const out: SourceStatement[] = [];
  let section = '';
  let subsection = '';
  let inTable = false;
  let tableHeader = '';
  const add = (text: string) => {
    const where = subsection ? `${section} / ${subsection}` : section;
    out.push({ kind: 'spec', id: `spec:${where}#${out.filter((s) => s.where === where).length + 1}`, where, text: text.trim() });
  };
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('|')) inTable = false;
    if (line === '' || line.startsWith('# ')) continue;
    if (line.startsWith('## ')) [section, subsection] = [line.slice(3), ''];
    else if (line.startsWith('### ')) subsection = line.slice(4);
    else if (line.startsWith('|')) {
      if (!inTable) [inTable, tableHeader] = [true, line];
      else if (!/^\|[-| :]+\|$/.test(line)) add(`${line}  (columns ${tableHeader})`);
    } else for (const sentence of sentences(line.replace(/^(-|\d+\.)\s+/, ''))) add(sentence);
  }
  return out;
}

/** The sentences of a paragraph (a full stop, question or exclamation mark followed by a space). */
export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z`(])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const VALUE_KEYWORDS = ['type', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'uniqueItems', 'const', 'default', 'maxProperties', 'minProperties', 'multipleOf'] as const;

/** Every statement of openapi.yaml (parsed): statuses, headers, schema keywords, description sentences. */
export function openapiStatements(doc: any): SourceStatement[] {
  const out: SourceStatement[] = [];
  const sides = schemaSides(doc);
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      const name = op.operationId ?? `${method.toUpperCase()} ${path}`;
      describe(out, `operation ${name}`, op.description);
      describe(out, `operation ${name}`, op.summary);
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x: any) => resolve(doc, x))) {
        const where = `operation ${name}, ${p.in} parameter ${p.name}`;
        if (p.required) out.push({ kind: 'openapi.keyword', id: `${where}: required`, where, text: `${p.name} is required`, side: 'request' });
        describe(out, where, p.description);
        keywords(out, doc, where, p.schema, 'request');
      }
      const body = resolve(doc, op.requestBody);
      describe(out, `operation ${name}, request body`, body?.description);
      for (const [type, media] of Object.entries<any>(body?.content ?? {})) keywords(out, doc, `operation ${name}, request body ${type}`, media.schema, 'request');
      for (const [status, raw] of Object.entries<any>(op.responses ?? {})) {
        const response = resolve(doc, raw);
        const where = `operation ${name}, response ${status}`;
        out.push({ kind: 'openapi.status', id: `${where}`, where: `operation ${name}`, text: `${method.toUpperCase()} ${path} answers ${status}`, side: 'response' });
        describe(out, where, response?.description);
        for (const [header, h] of Object.entries<any>(response?.headers ?? {})) {
          const hw = `${where}, header ${header}`;
          out.push({ kind: 'openapi.header', id: hw, where, text: `${status} carries ${header}`, side: 'response' });
          describe(out, hw, resolve(doc, h)?.description);
        }
        for (const [type, media] of Object.entries<any>(response?.content ?? {})) keywords(out, doc, `${where} ${type}`, media.schema, 'response');
      }
    }
  }
  for (const [name, schema] of Object.entries<any>(doc.components?.schemas ?? {})) {
    for (const side of sides.get(name) ?? ['response']) keywords(out, doc, `schema ${name}`, schema, side, true);
  }
  return dedupe(out);
}

/** The keywords of a schema, its properties and items, inline ones followed (named ones stand apart). */
function keywords(out: SourceStatement[], doc: any, where: string, schema: any, side: 'request' | 'response', named = false): void {
  if (!schema || typeof schema !== 'object' || (schema.$ref && !named)) return;
  const add = (keyword: string, text: string) => out.push({ kind: 'openapi.keyword', id: `${where} (${side}): ${keyword}`, where, text, side });
  describe(out, where, schema.description);
  for (const k of VALUE_KEYWORDS) if (schema[k] !== undefined) add(`${k} ${JSON.stringify(schema[k])}`, `${where}: ${k} ${JSON.stringify(schema[k])}`);
  for (const value of schema.enum ?? []) add(`enum ${JSON.stringify(value)}`, `${where}: one of the values is ${JSON.stringify(value)}`);
  for (const field of schema.required ?? []) add(`required ${field}`, `${where}: ${field} is required`);
  if (schema.additionalProperties === false) add('closed', `${where}: no property beyond those listed`);
  for (const [prop, sub] of Object.entries<any>(schema.properties ?? {})) keywords(out, doc, `${where}.${prop}`, sub, side);
  if (schema.items) keywords(out, doc, `${where}[]`, schema.items, side);
  if (typeof schema.additionalProperties === 'object') keywords(out, doc, `${where}{}`, schema.additionalProperties, side);
  for (const combinator of ['oneOf', 'anyOf', 'allOf'] as const) (schema[combinator] ?? []).forEach((s: any, i: number) => keywords(out, doc, `${where}|${combinator}${i}`, s, side));
}

function describe(out: SourceStatement[], where: string, description: unknown): void {
  if (typeof description !== 'string') return;
  sentences(description).forEach((text, i) => out.push({ kind: 'openapi.description', id: `${where}: sentence ${i + 1}`, where, text }));
}

/** Which component schemas a request reaches and which a response reaches (a schema may be both). */
function schemaSides(doc: any): Map<string, Array<'request' | 'response'>> {
  const reach = (start: unknown, seen: Set<string>) => {
    const walk = (n: unknown): void => {
      if (!n || typeof n !== 'object') return;
      if (Array.isArray(n)) return n.forEach(walk);
      const ref = (n as any).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/')) {
        const key = ref.slice(2);
        if (seen.has(key)) return;
        seen.add(key);
        return walk(pointer(doc, ref));
      }
      Object.values(n).forEach(walk);
    };
    walk(start);
  };
  const requests = new Set<string>();
  const responses = new Set<string>();
  for (const item of Object.values<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item?.[method];
      if (!op) continue;
      reach([item.parameters, op.parameters, op.requestBody], requests);
      reach(op.responses, responses);
    }
  }
  const sides = new Map<string, Array<'request' | 'response'>>();
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    const key = `components/schemas/${name}`;
    const list: Array<'request' | 'response'> = [];
    if (requests.has(key)) list.push('request');
    if (responses.has(key) || !requests.has(key)) list.push('response');
    sides.set(name, list);
  }
  return sides;
}

function resolve(doc: any, node: any): any {
  return node?.$ref ? resolve(doc, pointer(doc, node.$ref)) : node;
}

function pointer(doc: any, ref: string): any {
  return ref
    .slice(2)
    .split('/')
    .reduce((n, part) => n?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

function dedupe(list: SourceStatement[]): SourceStatement[] {
  const seen = new Set<string>();
  return list.filter((s) => (seen.has(s.id) ? false : (seen.add(s.id), true)));
}
