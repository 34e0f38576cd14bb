import { createServer } from 'node:http';
import { PUSH_WEBHOOK_CONSUMER } from '#shared/upstream/notifications.ts';
import { verifySignature } from '#shared/upstream/verify-signature.ts';

export interface ReceivedPush {
  status: number;
  consumer: string | undefined;
  signatureValid: boolean;
  json: unknown;
}

export interface PushReceiver {
  url: string;
  calls: ReceivedPush[];
  close(): Promise<void>;
}

const PATH = '/webhooks/travel-api/push';

/**
 * A stand-in for the app's push webhook: verifies each call's signature with the shared verifier and
 * answers with the scripted statuses in turn (401 for a bad signature, 204 once the script runs out).
 */
export async function startPushReceiver(secret: string, statuses: number[] = []): Promise<PushReceiver> {
  const calls: ReceivedPush[] = [];
  const script = [...statuses];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const consumer = header('service-consumer');
      const verified = verifySignature({
        headers: { consumer, timestamp: header('service-timestamp'), signature: header('service-signature') },
        method: request.method ?? '',
        path: request.url ?? '',
        body,
        secrets: consumer === PUSH_WEBHOOK_CONSUMER ? { current: secret } : undefined,
      });
      const status = !verified.ok ? 401 : (script.shift() ?? 204);
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        json = undefined;
      }
      calls.push({ status, consumer, signatureValid: verified.ok, json });
      response.statusCode = request.url === PATH ? status : 404;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('receiver did not bind a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}${PATH}`,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
