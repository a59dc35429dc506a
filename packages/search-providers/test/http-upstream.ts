import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { UpstreamUnderTest } from './describe-search-provider.js';

/** A canned HTTP answer, replaying what the real backend sends in that situation. */
export interface HttpReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

/** An HTTP backend on the fixture web, answering on one path. */
export interface HttpUpstream extends UpstreamUnderTest<HttpReply> {
  /** The fixture web it runs on, for the provider's endpoint. */
  readonly web: FixtureWeb;
}

/** Starts a fixture web whose `path` answers as the suite tells it. */
export async function startHttpUpstream(path: string): Promise<HttpUpstream> {
  const web = await startFixtureWeb();
  return {
    web,
    reply(answer, options = {}) {
      web.scenario(path, {
        status: answer.status ?? 200,
        headers: answer.headers ?? {},
        body: answer.body ?? '',
        ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
      });
    },
    breakConnection() {
      web.scenario(path, (request) => {
        request.socket.destroy();
      });
    },
    requestCount: () => web.requests.length,
    async reset() {
      web.reset();
    },
    close: () => web.close(),
  };
}
