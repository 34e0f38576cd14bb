import fc from 'fast-check';

/** One request the fuzz sends: random path parameters, query, body and content type. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

const oddText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.uuid(),
  fc.constantFrom(
    '',
    '..',
    '%00',
    '%ZZ',
    '💥',
    '<script>alert(1)</script>',
    'x'.repeat(300),
    '-1',
    '1e309',
    'null',
  ),
);

const query = fc.dictionary(
  fc.constantFrom(
    'limit',
    'offset',
    'status',
    'vertical',
    'before',
    'from',
    'to',
    'currentVersion',
    'q',
    'tab',
    'zz',
  ),
  fc.oneof(oddText, fc.integer().map(String)),
  { maxKeys: 3 },
);

const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.object({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 60 }),
  fc.constant(''),
  fc.constant(
    '{"itinerary":[{"origin":"ZRH","destination":"JFK","date":"2099-01-01"}],"passengers":{"adults":0}}',
  ),
);

const contentType = fc.constantFrom(
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  '',
);

/** Random requests for one route pattern (`/v1/trips/:tripId`): every parameter, query and body is odd. */
export function fuzzRequests(method: string, pattern: string): fc.Arbitrary<FuzzRequest> {
  const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');
  return fc
    .record({
      params: fc.tuple(...names.map(() => oddText)),
      query,
      body,
      contentType,
    })
    .map(({ params, query: search, body: text, contentType: type }): FuzzRequest => {
      let index = 0;
      const path = pattern
        .replace(/:(\w+)(\([^)]*\))?/g, () => encodeURIComponent(params[index++] ?? ''))
        .replace(/\*/g, 'x');
      const qs = new URLSearchParams(search).toString();
      const withBody = method !== 'GET' && method !== 'DELETE';
      return {
        method,
        path: qs ? `${path}?${qs}` : path,
        headers: withBody && type ? { 'content-type': type } : {},
        body: withBody ? text : undefined,
      };
    });
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Reads an answer; an event stream that opened is cancelled (its 200 is all the fuzz needs). */
export async function readAnswer(response: Response): Promise<FuzzAnswer> {
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, contentType, text: '' };
  }
  return { status: response.status, contentType, text: await response.text() };
}

/** True when a body is the spec's error envelope: `{ error: { code, message, details, recoveryAction } }`. */
export function isErrorEnvelope(text: string): boolean {
  try {
    const { error } = JSON.parse(text) as { error?: Record<string, unknown> };
    return (
      typeof error?.code === 'string' &&
      typeof error.message === 'string' &&
      Array.isArray(error.details) &&
      typeof error.recoveryAction === 'string'
    );
  } catch {
    return false;
  }
}
