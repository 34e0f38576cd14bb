import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB_SRC = path.resolve(import.meta.dirname, '..');

/** What the compositor animates by itself: any other property is painted again by the main thread on every frame. */
const COMPOSITED = new Set(['transform', 'opacity']);

function cssFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return cssFiles(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}

/** Each `@keyframes` block of a stylesheet: its name and the properties its frames set. */
function keyframesOf(css: string): { name: string; properties: string[] }[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const found: { name: string; properties: string[] }[] = [];
  for (const match of text.matchAll(/@keyframes\s+([\w-]+)\s*\{/g)) {
    let depth = 1;
    let end = match.index + match[0].length;
    while (depth > 0 && end < text.length) {
      if (text[end] === '{') depth += 1;
      else if (text[end] === '}') depth -= 1;
      end += 1;
    }
    const body = text.slice(match.index + match[0].length, end - 1);
    const properties = [...body.matchAll(/([\w-]+)\s*:/g)].map((property) => property[1]!);
    found.push({ name: match[1]!, properties: [...new Set(properties)] });
  }
  return found;
}

describe('the stylesheets’ animations', () => {
  it('reads the properties each keyframes block sets', () => {
    expect(
      keyframesOf(
        '@keyframes a { from { transform: none; } to { opacity: 0; } } /* @keyframes b { x: 1 } */ @keyframes c{50%{background-position:0 0}}',
      ),
    ).toEqual([
      { name: 'a', properties: ['transform', 'opacity'] },
      { name: 'c', properties: ['background-position'] },
    ]);
  });

  // Skeletons shine and spinners turn while a page waits for its data, which on a phone's slow CPU is
  // when the main thread is busiest: what they animate must not need it.
  it('animate only what the compositor moves by itself (transform, opacity)', () => {
    const files = cssFiles(WEB_SRC);
    const animations = files.flatMap((file) =>
      keyframesOf(readFileSync(file, 'utf8')).map((keyframes) => ({
        ...keyframes,
        file: path.relative(WEB_SRC, file),
      })),
    );
    expect(animations.length, 'the stylesheets have animations to check').toBeGreaterThan(0);
    const painted = animations
      .filter((animation) => animation.properties.some((property) => !COMPOSITED.has(property)))
      .map(
        (animation) => `${animation.file} @keyframes ${animation.name}: ${animation.properties.join(', ')}`,
      );
    expect(painted).toEqual([]);
  });
});
