import { XMLValidator } from 'fast-xml-parser';

/**
 * Why a document is not well-formed XML, or [] when it is. Our SVG is XML, and our HTML is
 * written so that it parses as XML too (void elements self-closed, everything escaped).
 */
export function markupProblems(text: string): string[] {
  const result = XMLValidator.validate(text);
  const problems = result === true ? [] : [`${result.err.code} at ${result.err.line}:${result.err.col}: ${result.err.msg}`];
  // Characters XML 1.0 forbids anywhere, which the validator lets through.
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text)) problems.push('a control character XML forbids');
  return problems;
}
