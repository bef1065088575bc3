/** Link targets that may appear in output: anything else (javascript:, vbscript:, ...) is dropped. */
const SAFE_PREFIXES = ['https://', 'http://', 'mailto:', 'tel:', 'data:image/svg+xml;base64,'];

export function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  const lower = trimmed.toLowerCase();
  for (const prefix of SAFE_PREFIXES) {
    if (lower.startsWith(prefix) && trimmed.length > prefix.length && !/\s/.test(trimmed)) return trimmed;
  }
  return null;
}
