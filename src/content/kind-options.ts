/**
 * Which build options each kind takes: a press release takes `pressRelease`, a social build
 * `socialPlatforms`; any kind takes `libraryItemIds`. Problems come back as
 * `{ path, message }` entries, so the API can refuse the build with a 400.
 */
import type { ContentKind, PressReleaseOptions, SocialPlatform } from './types.js';

export interface KindOptions {
  kind: ContentKind;
  pressRelease?: PressReleaseOptions;
  socialPlatforms?: SocialPlatform[];
}

export interface OptionProblem {
  path: string;
  message: string;
}

const OPTION_KINDS = { pressRelease: 'press_release', socialPlatforms: 'social' } as const;

export function kindOptionProblems(options: KindOptions): OptionProblem[] {
  const problems: OptionProblem[] = [];
  for (const [field, kind] of Object.entries(OPTION_KINDS)) {
    if (options[field as keyof typeof OPTION_KINDS] !== undefined && options.kind !== kind) {
      problems.push({ path: `body.${field}`, message: `applies only to kind ${kind}, not ${options.kind}` });
    }
  }
  // A verbatim or polished quote needs the words to keep or to polish.
  options.pressRelease?.quotes?.forEach((quote, i) => {
    if ((quote.mode === 'verbatim' || quote.mode === 'polish') && !quote.text?.trim()) {
      problems.push({ path: `body.pressRelease.quotes[${i}].text`, message: `is required for a quote in mode ${quote.mode}` });
    }
  });
  return problems;
}
