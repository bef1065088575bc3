import { isRuleId, RULE_IDS, type RuleId } from './rules.js';

/**
 * The rules to leave unjudged, from a list such as `--client-rules` takes: items separated by
 * commas, read in order from "every rule on": `-<id>` turns a rule off, `<id>` on again,
 * `none` turns every rule off and `all` every rule on. Throws a RangeError naming an unknown item.
 */
export function rulesOffFrom(list: string): RuleId[] {
  const off = new Set<RuleId>();
  for (const raw of list.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    if (item === 'all') off.clear();
    else if (item === 'none') for (const rule of RULE_IDS) off.add(rule);
    else {
      const name = item.startsWith('-') ? item.slice(1) : item;
      if (!isRuleId(name)) throw new RangeError(`unknown client rule ${JSON.stringify(name)}: the rules are ${RULE_IDS.join(', ')}`);
      if (item.startsWith('-')) off.add(name);
      else off.delete(name);
    }
  }
  return RULE_IDS.filter((rule) => off.has(rule));
}
