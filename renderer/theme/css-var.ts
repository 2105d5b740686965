// Colour tokens for code that paints without CSS (the graph canvas).

/** Reads a colour token as a concrete colour (canvas drawing needs one). Tokens hold
 * light-dark() pairs, which only an element can resolve: a hidden probe takes the token's colour
 * in the colour scheme in force and reports it as rgb(). */
export function cssVar(name: string, fallback = '#888'): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  if (!v) return fallback;
  const probe = document.createElement('span');
  probe.style.display = 'none';
  probe.style.color = v;
  (document.body ?? document.documentElement).appendChild(probe);
  const resolved = getComputedStyle(probe).color;
  probe.remove();
  return resolved || v;
}
