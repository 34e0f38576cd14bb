import { describe, expect, it } from 'vitest';
import { consoleLineFormatter } from './console-lines.ts';

const event = JSON.stringify({
  level: 40,
  time: Date.UTC(2026, 10, 24, 9, 30, 5),
  pid: 123,
  hostname: 'box',
  reqId: 'r-1',
  msg: 'request failed upstream',
  code: 'SERVICE_UNAVAILABLE',
  status: 503,
});

describe('the console of npm start', () => {
  it('shows a pino event on one readable line: level, message and fields, no JSON braces', () => {
    const line = consoleLineFormatter({ json: false, colorize: false })(event);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trim().split('\n')).toHaveLength(1);
    expect(line).toMatch(/WARN.*request failed upstream/);
    expect(line).toContain('SERVICE_UNAVAILABLE');
    expect(line).not.toContain('"level"');
    expect(line).not.toContain('hostname');
  });

  it('keeps JSON when asked, and passes lines that are not JSON through', () => {
    expect(consoleLineFormatter({ json: true, colorize: false })(event)).toBe(`${event}\n`);
    expect(consoleLineFormatter({ json: false, colorize: false })('Wayfare is ready')).toBe(
      'Wayfare is ready\n',
    );
  });
});
