/**
 * What each of N idle streams keeps, from two V8 heap snapshots of one process (`npm run bench -- sse
 * --heap-snapshots <folder>` writes `bff-empty` and `bff-idle`, `floor-empty` and `floor-idle`):
 *
 *   node bench/support/heap-snapshot-report.ts <empty.heapsnapshot> <idle.heapsnapshot> <N>
 *     [--top 30] [--retained-by <constructor> ...]
 *
 * It prints the idle snapshot's objects over the empty one's by kind (constructor, closure, string,
 * array...), as bytes and counts per stream, and, for each `--retained-by` constructor, what only objects
 * of that kind keep alive (everything that becomes unreachable from the GC roots once they are); a comma
 * joins kinds into one group: `--retained-by _Reply,_Request` for what Fastify's request and reply hold
 * per stream. Code
 * objects (compiled functions) are left out of the per-stream figures: they grow with what V8 has
 * optimised, not with the streams. A snapshot is read whole: give Node a large heap
 * (`node --max-old-space-size=8192 ...`) for snapshots of thousands of streams.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { printTable } from './print-table.ts';

/** The parts of a `.heapsnapshot` file this report reads. */
interface HeapSnapshotFile {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

type NodeField = 'type' | 'name' | 'id' | 'size' | 'edges';

/** One snapshot, indexed for walking its graph. */
class HeapSnapshot {
  readonly count: number;
  readonly #file: HeapSnapshotFile;
  readonly #nodeWidth: number;
  readonly #edgeWidth: number;
  readonly #field: Record<NodeField, number>;
  readonly #edgeField: Record<'type' | 'name' | 'to', number>;
  readonly #firstEdge: Uint32Array;

  constructor(file: string) {
    this.#file = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshotFile;
    const { node_fields: nodeFields, edge_fields: edgeFields } = this.#file.snapshot.meta;
    this.#nodeWidth = nodeFields.length;
    this.#edgeWidth = edgeFields.length;
    this.#field = {
      type: nodeFields.indexOf('type'),
      name: nodeFields.indexOf('name'),
      id: nodeFields.indexOf('id'),
      size: nodeFields.indexOf('self_size'),
      edges: nodeFields.indexOf('edge_count'),
    };
    this.#edgeField = {
      type: edgeFields.indexOf('type'),
      name: edgeFields.indexOf('name_or_index'),
      to: edgeFields.indexOf('to_node'),
    };
    this.count = this.#file.nodes.length / this.#nodeWidth;
    this.#firstEdge = new Uint32Array(this.count + 1);
    let edge = 0;
    for (let node = 0; node < this.count; node += 1) {
      this.#firstEdge[node] = edge;
      edge += this.#node(node, 'edges') * this.#edgeWidth;
    }
    this.#firstEdge[this.count] = this.#file.edges.length;
  }

  #node(node: number, field: NodeField): number {
    return this.#file.nodes[node * this.#nodeWidth + this.#field[field]] ?? 0;
  }

  id(node: number): number {
    return this.#node(node, 'id');
  }

  size(node: number): number {
    return this.#node(node, 'size');
  }

  /** The node's kind: its constructor's name for an object, else the kind of V8 thing it is. */
  kind(node: number): string {
    const type = this.#file.snapshot.meta.node_types[0][this.#node(node, 'type')] ?? '?';
    const name = this.#file.strings[this.#node(node, 'name')] ?? '';
    if (type === 'object') return name;
    if (type === 'closure') return `closure ${name}`.trimEnd();
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') return '(string)';
    if (type === 'code') return '(code)';
    return `(${type}) ${name.slice(0, 40)}`.trimEnd();
  }

  /** The nodes reachable from the GC roots through strong edges, except through nodes `blocked` says. */
  reachable(blocked: (node: number) => boolean = () => false): Uint8Array {
    const seen = new Uint8Array(this.count);
    const queue = [0];
    seen[0] = 1;
    const edgeTypes = this.#file.snapshot.meta.edge_types[0];
    const { edges } = this.#file;
    for (let head = 0; head < queue.length; head += 1) {
      const node = queue[head] as number;
      const end = this.#firstEdge[node + 1] ?? 0;
      for (let edge = this.#firstEdge[node] ?? 0; edge < end; edge += this.#edgeWidth) {
        const type = edgeTypes[edges[edge + this.#edgeField.type] ?? 0];
        if (type === 'weak' || type === 'shortcut') continue;
        const to = (edges[edge + this.#edgeField.to] ?? 0) / this.#nodeWidth;
        if (seen[to] === 1 || blocked(to)) continue;
        seen[to] = 1;
        queue.push(to);
      }
    }
    return seen;
  }
}

/** Bytes and counts by kind. */
type Totals = Map<string, { count: number; bytes: number }>;

function add(totals: Totals, kind: string, bytes: number, count = 1): void {
  const entry = totals.get(kind) ?? { count: 0, bytes: 0 };
  entry.count += count;
  entry.bytes += bytes;
  totals.set(kind, entry);
}

function printPerStream(title: string, totals: Totals, streams: number, top: number): void {
  let bytes = 0;
  for (const [kind, entry] of totals) if (kind !== '(code)') bytes += entry.bytes;
  console.log(`\n${title}: ${(bytes / streams).toFixed(0)} bytes per stream (code objects left out)\n`);
  const rows = [...totals]
    .filter(([kind]) => kind !== '(code)')
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, top)
    .map(([kind, entry]) => [kind, (entry.bytes / streams).toFixed(0), (entry.count / streams).toFixed(2)]);
  printTable(['kind', 'bytes per stream', 'objects per stream'], rows);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    'retained-by': { type: 'string', multiple: true, default: [] },
  },
});
const [emptyFile, idleFile, perText] = positionals;
const streams = Number(perText);
if (emptyFile === undefined || idleFile === undefined || !(streams > 0)) {
  console.error(
    'usage: node bench/support/heap-snapshot-report.ts <empty.heapsnapshot> <idle.heapsnapshot> <streams> [--top 30] [--retained-by <constructor> ...]',
  );
  process.exit(2);
}
const top = Number(values.top);

// By kind: the idle snapshot's objects over the empty one's (each snapshot's own objects counted).
const byKind: Totals = new Map();
const before = new HeapSnapshot(emptyFile);
const emptyIds = new Set<number>();
for (let node = 0; node < before.count; node += 1) {
  emptyIds.add(before.id(node));
  add(byKind, before.kind(node), -before.size(node), -1);
}
const idle = new HeapSnapshot(idleFile);
for (let node = 0; node < idle.count; node += 1) add(byKind, idle.kind(node), idle.size(node));
printPerStream('The idle process over the empty one, by kind', byKind, streams, top);

// What only objects of each named kind keep alive, among the objects the streams added.
const everything = idle.reachable();
for (const constructor of values['retained-by']) {
  const kinds = new Set(constructor.split(','));
  const kept = idle.reachable((node) => kinds.has(idle.kind(node)));
  const retained: Totals = new Map();
  for (let node = 0; node < idle.count; node += 1) {
    if (everything[node] === 1 && kept[node] === 0 && !emptyIds.has(idle.id(node)))
      add(retained, idle.kind(node), idle.size(node));
  }
  printPerStream(`Kept alive only by ${[...kinds].join(' and ')}`, retained, streams, top);
}
