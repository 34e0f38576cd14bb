import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The SPA's import graph, read from its source with the TypeScript compiler's own import scanner
 * (static imports, re-exports, `import()` and type imports alike): no module of web/src imports itself
 * through others, and no feature depends on another that depends back on it. The boundary lint keeps
 * features to each other's public faces (eslint.boundaries.js); this keeps those faces pointing one way.
 */
const root = path.resolve(import.meta.dirname, '..');
const source = 'web/src';

const isProduction = (file: string) =>
  /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.split('/').includes('test-support');

function importGraph(): Map<string, string[]> {
  const files = readdirSync(path.join(root, source), { recursive: true, encoding: 'utf8' })
    .map((file) => `${source}/${file.split(path.sep).join('/')}`)
    .filter(isProduction);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one member, or with an edge to itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const featureOf = (file: string) => /^web\/src\/features\/([^/]+)\//.exec(file)?.[1];

function featureGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const features = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = featureOf(file);
    if (!from) continue;
    const edges = features.get(from) ?? new Set<string>();
    features.set(from, edges);
    for (const target of targets) {
      const to = featureOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return new Map([...features].map(([feature, edges]) => [feature, [...edges].sort()]));
}

describe('the import graph of web/src', () => {
  const graph = importGraph();

  it('is read whole: the walk sees the app shell reach every feature and features reach each other', () => {
    const features = featureGraph(graph);
    expect(features.size).toBeGreaterThanOrEqual(10);
    expect(features.get('stays')).toContain('checkout');
    expect(features.get('trips')).toContain('notifications');
    expect(graph.get('web/src/app/app-layout.tsx')).toContain(
      'web/src/features/notifications/live-notifications.tsx',
    );
  });

  it('has no cycle between modules', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between features', () => {
    expect(cycles(featureGraph(graph))).toEqual([]);
  });
});
