import { describe, expect, expectTypeOf, it } from 'vitest';
import type { KeylessHttpRequest, KeylessParseOutcome, KeylessResponse, KeylessResult } from './index.js';
import * as keylessHtml from './index.js';

// Other packages call these by name and shape; a rename or a changed signature must fail here.
describe('public API', () => {
  it('exports the builders, parsers and filter declarations by their agreed names', () => {
    const functions = [
      keylessHtml.buildDuckDuckGoRequest,
      keylessHtml.buildStartpageRequest,
      keylessHtml.parseDuckDuckGoHtml,
      keylessHtml.parseStartpageHtml,
      keylessHtml.duckDuckGoRegion,
    ];
    for (const exported of functions) expect(exported).toBeTypeOf('function');
    expect(keylessHtml.duckDuckGoFilterSupport).toHaveProperty('timeRange');
    expect(keylessHtml.startpageFilterSupport).toHaveProperty('timeRange');
  });

  it('types requests, responses and outcomes as agreed', () => {
    expectTypeOf(keylessHtml.buildDuckDuckGoRequest).returns.toEqualTypeOf<KeylessHttpRequest>();
    expectTypeOf(keylessHtml.buildStartpageRequest)
      .parameter(0)
      .toHaveProperty('query')
      .toEqualTypeOf<string>();
    expectTypeOf<KeylessHttpRequest['body']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(keylessHtml.parseDuckDuckGoHtml).parameter(0).toEqualTypeOf<KeylessResponse>();
    expectTypeOf(keylessHtml.parseStartpageHtml).returns.toEqualTypeOf<KeylessParseOutcome>();
    expectTypeOf<Headers>().toMatchTypeOf<KeylessResponse['headers']>();
    expectTypeOf<{ location: string }>().toMatchTypeOf<KeylessResponse['headers']>();
    expectTypeOf<Extract<KeylessParseOutcome, { kind: 'results' }>['results']>().toEqualTypeOf<
      KeylessResult[]
    >();
    expectTypeOf<KeylessResult>().toEqualTypeOf<{ title: string; url: string; snippet: string }>();
    expectTypeOf<KeylessParseOutcome['kind']>().toEqualTypeOf<
      'results' | 'rate_limited' | 'no_results' | 'unavailable'
    >();
  });
});
