import type { ErrorEnvelope } from './upstream/error-envelope.ts';

/**
 * What the HTTP parser rejected (Node's `clientError` codes), as a status, its reason phrase and the error
 * code of the envelope. None is VALIDATION_ERROR, which the spec pairs with 422 and a detail per field:
 * headers (or a request line, query string included) over the parser's limit are REQUEST_HEADERS_TOO_LARGE
 * with HTTP's own 431, a request not received in time REQUEST_TIMEOUT 408, anything else BAD_REQUEST 400.
 */
export function clientErrorStatus(code: string | undefined): {
  status: number;
  reason: string;
  code: string;
} {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', code: 'REQUEST_HEADERS_TOO_LARGE' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', code: 'REQUEST_TIMEOUT' };
    default:
      return { status: 400, reason: 'Bad Request', code: 'BAD_REQUEST' };
  }
}

/**
 * The raw bytes of an error answer written straight to the socket when the HTTP parser rejects a request
 * before any route sees it: the envelope as JSON, and the connection closed. Nothing of the request is echoed.
 */
export function clientErrorResponse(status: number, reason: string, envelope: ErrorEnvelope): string {
  const body = JSON.stringify(envelope);
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${new TextEncoder().encode(body).length}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
