/**
 * Turns a schema of the OpenAPI document into a self-contained JSON Schema 2020-12 for a
 * tool: every `#/components/schemas/X` it reaches is copied into `$defs`, and the OpenAPI
 * extensions (`x-…`, `discriminator`, `example`) that strict validators refuse are dropped.
 */
type Json = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';
const DROPPED = new Set(['discriminator', 'example', 'xml', 'externalDocs']);

export class SchemaBundler {
  constructor(private readonly document: Json) {}

  /** A copy of `schema` whose references point into its own `$defs`. */
  bundle(schema: unknown): Json {
    const defs: Record<string, unknown> = {};
    const pending: string[] = [];
    const root = this.rewrite(schema, pending) as Json;
    while (pending.length) {
      const name = pending.pop() as string;
      if (name in defs) continue;
      defs[name] = null; // reserve: recursive schemas stop here
      defs[name] = this.rewrite(this.component(name), pending);
    }
    return Object.keys(defs).length ? { ...root, $defs: defs } : root;
  }

  /** The schema a `$ref` names, one level resolved (what a tool's top level needs to merge). */
  resolve(schema: unknown): Json {
    let node = schema as Json;
    for (let hops = 0; node && typeof node.$ref === 'string' && hops < 16; hops++) {
      const ref = node.$ref as string;
      if (!ref.startsWith(SCHEMA_REF)) break;
      node = this.component(ref.slice(SCHEMA_REF.length));
    }
    return node ?? {};
  }

  private component(name: string): Json {
    const schemas = (this.document.components as Json | undefined)?.schemas as Record<string, Json> | undefined;
    const found = schemas?.[name];
    if (!found) throw new Error(`openapi.yaml: no schema ${name}`);
    return found;
  }

  private rewrite(node: unknown, pending: string[]): unknown {
    if (Array.isArray(node)) return node.map((item) => this.rewrite(item, pending));
    if (!node || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json)) {
      if (key.startsWith('x-') || DROPPED.has(key)) continue;
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
        const name = value.slice(SCHEMA_REF.length);
        pending.push(name);
        out.$ref = `#/$defs/${name}`;
        continue;
      }
      // `properties` maps names to schemas: a property may be called `example` or `x-…`.
      out[key] = key === 'properties' || key === '$defs' ? this.rewriteMap(value as Json, pending) : this.rewrite(value, pending);
    }
    return out;
  }

  private rewriteMap(map: Json, pending: string[]): Json {
    const out: Json = {};
    for (const [name, schema] of Object.entries(map)) out[name] = this.rewrite(schema, pending);
    return out;
  }
}
