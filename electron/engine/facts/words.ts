// The one word splitter of the inference rules: keys and titles in snake_case, kebab-case,
// dotted, spaced or camelCase become lower-case words, so rules match words, never substrings.

export function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}
