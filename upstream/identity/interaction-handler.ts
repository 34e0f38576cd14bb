import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { authenticate, DEMO_ACCOUNTS } from './accounts.ts';
import { pageLanguage, renderMessagePage, renderSignInPage, type RenderedPage } from './identity-pages.ts';

const MAX_FORM_BYTES = 8 * 1024;
const INTERACTION_PATH = /^\/interaction\/([A-Za-z0-9_-]{1,64})(\/login|\/abort)?$/;

class FormTooLargeError extends Error {
  override name = 'FormTooLargeError';
}

function send(response: ServerResponse, rendered: RenderedPage, status = 200): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': rendered.contentSecurityPolicy,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  response.end(rendered.html);
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new FormTooLargeError('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export interface InteractionHandlerOptions {
  provider: () => Provider;
  demoMode: boolean;
  logger: Logger;
}

/**
 * The sign-in pages in front of oidc-provider: GET /interaction/:uid shows the form, POST .../login
 * checks the credentials, POST .../abort cancels. Consent is implied for the first-party BFF (see
 * loadExistingGrant), so a consent prompt is finished straight away. Returns false for other paths.
 */
export function createInteractionHandler(options: InteractionHandlerOptions) {
  const { demoMode, logger } = options;

  return async function handleInteraction(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<boolean> {
    const pathname = new URL(request.url ?? '/', 'http://identity.invalid').pathname;
    const match = INTERACTION_PATH.exec(pathname);
    if (!match) return false;
    const [, uid, action] = match;
    const provider = options.provider();
    const signInPage = (wrongCredentials = false, email?: string): RenderedPage =>
      renderSignInPage({
        action: `/interaction/${uid}/login`,
        abortAction: `/interaction/${uid}/abort`,
        wrongCredentials,
        email,
        demoAccounts: demoMode ? DEMO_ACCOUNTS : undefined,
        language: pageLanguage(request.headers['accept-language']),
      });

    try {
      const details = await provider.interactionDetails(request, response);
      if (details.uid !== uid) {
        send(response, renderMessagePage('Sign-in expired', 'Go back to Wayfare and sign in again.'), 400);
        return true;
      }
      if (request.method === 'GET' && !action) {
        if (details.prompt.name === 'login') {
          send(response, signInPage());
        } else {
          await provider.interactionFinished(request, response, {}, { mergeWithLastSubmission: true });
        }
        return true;
      }
      if (request.method === 'POST' && action === '/abort') {
        await provider.interactionFinished(
          request,
          response,
          { error: 'access_denied', error_description: 'The traveler cancelled the sign-in.' },
          { mergeWithLastSubmission: false },
        );
        return true;
      }
      if (request.method === 'POST' && action === '/login') {
        const form = await readForm(request);
        const email = form.get('email') ?? '';
        const account = authenticate(email, form.get('password') ?? '');
        if (!account) {
          logger.info('sign-in refused: wrong email or password');
          send(response, signInPage(true, email), 401);
          return true;
        }
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: account.sub } },
          { mergeWithLastSubmission: false },
        );
        return true;
      }
      send(response, renderMessagePage('Not found', 'This page does not exist.'), 404);
      return true;
    } catch (error) {
      if (error instanceof FormTooLargeError) {
        send(response, renderMessagePage('Request too large', 'The form was too large.'), 413);
        return true;
      }
      logger.info({ err: (error as Error).message }, 'sign-in interaction not found or expired');
      send(response, renderMessagePage('Sign-in expired', 'Go back to Wayfare and sign in again.'), 400);
      return true;
    }
  };
}
