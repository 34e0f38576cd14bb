import { open } from 'node:fs/promises';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file's own environment, from its docblock (`// @vitest-environment jsdom`), which Vitest reads the same way. */
const ENVIRONMENT_COMMENT = /@vitest-environment\s+([\w-]+)/;

/** The docblock sits above a file's imports: its first bytes are enough. */
const HEAD_BYTES = 1024;

async function environmentOf(spec: TestSpecification): Promise<string> {
  const file = await open(spec.moduleId, 'r');
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(HEAD_BYTES), position: 0 });
    return (
      ENVIRONMENT_COMMENT.exec(buffer.toString('utf8', 0, bytesRead))?.[1] ?? spec.project.config.environment
    );
  } finally {
    await file.close();
  }
}

/**
 * Vitest's order (a project at a time, larger or longer files first), with each project's files of one
 * environment one after another: those of Node first, then those of jsdom.
 *
 * A worker that shares its loaded modules with the files before it (`isolate: false`) is kept for the
 * next file only when that file has the same environment; otherwise Vitest stops it and starts another
 * process, which loads Fastify, React and the rest again. Vitest's own order mixes the two environments,
 * and each change in it cost a process start; grouped, each worker changes environment once
 * (docs/testing.md: the unit tests alone took 130 s and 215 core-seconds, then 93 s and 142). The jsdom
 * files come last because they are short: they spread the end of the run evenly over the workers.
 */
export default class EnvironmentGroupingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const environments = await Promise.all(sorted.map(environmentOf));
    const projectOrder = new Map<string, number>();
    for (const spec of sorted) {
      if (!projectOrder.has(spec.project.name)) projectOrder.set(spec.project.name, projectOrder.size);
    }
    return sorted
      .map((spec, index) => ({
        spec,
        index,
        project: projectOrder.get(spec.project.name) ?? 0,
        environment: environments[index] === 'node' ? 0 : 1,
      }))
      .sort((a, b) => a.project - b.project || a.environment - b.environment || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
