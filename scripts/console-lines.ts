import { prettyFactory } from 'pino-pretty';

/**
 * The servers log pino JSON (the production format); the console of `npm start` shows each event on one
 * readable line (time, level, message, fields) unless `json` is asked for. Lines that are not JSON pass as
 * they are.
 */
export function consoleLineFormatter(options: {
  json: boolean;
  colorize: boolean;
}): (line: string) => string {
  const pretty = prettyFactory({
    colorize: options.colorize,
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname,name,reqId',
    singleLine: true,
  });
  return (line) => {
    if (options.json || !line.startsWith('{')) return `${line}\n`;
    try {
      return pretty(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return `${line}\n`;
    }
  };
}
