import { Document, isMap, isSeq, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Scene } from './types.js';

/**
 * The scene as YAML: the scenario, with what the recording shows that the scene leaves out or
 * cannot state as comments, one line each, above the account they are about.
 */
export function sceneYaml(scene: Scene, mappingFile: string): string {
  const doc = new Document(scene.scenario);
  doc.commentBefore = [
    ' A scene: the last state a recording shows, as a scenario (docs/reference/scenarios.md).',
    ` Load it: content-sim serve --scenario <this file>, POST /_sim/scenarios, createSimulator({ scenarios }).`,
    ' Keys and share links are new on every load: none of the recording is in this file.',
    ` ${mappingFile} maps the recording's ids to the names here (and, once loaded, to the new ids).`,
  ].join('\n');
  const accounts = doc.get('accounts', true) as YAMLSeq;
  accounts.items.forEach((node, i) => {
    if (!isMap(node)) return;
    const name = scene.scenario.accounts[i]?.name as string;
    const lines = scene.notes[name] ?? [];
    if (!lines.length) return;
    (node as YAMLMap).commentBefore = lines.map((n) => ` ${n.kind}: ${n.text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
  });
  for (const node of accounts.items) {
    if (!isMap(node)) continue;
    for (const pair of (node as YAMLMap).items) if (isSeq(pair.value)) (pair.value as YAMLSeq).flow = false;
  }
  return doc.toString({ lineWidth: 0 });
}
