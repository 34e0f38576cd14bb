import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** Sends bytes as they are over a fresh TCP connection and reads the answer until the server closes it. */
export function rawHttp(baseUrl: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

/** The ways a request can fail before any route sees it, and a long path parameter that a route refuses. */
export const MALFORMED_REQUESTS = {
  oversizedHeaders: (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(70 * 1024)}\r\n\r\n`,
  brokenRequestLine: 'GET /\u0001broken HTTP/1.1\r\nHost: localhost\r\n\r\n',
  notHttp: 'HELLO THERE\r\n\r\n',
};

/** A 20 KB header and a 20 KB query string: both over the HTTP parser's 16 KiB for the request head. */
export const OVERSIZED_REQUESTS = (path: string): string[] => [
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
  `GET ${path}?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
];
