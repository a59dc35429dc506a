import type { WebRun } from '@mono-agent/web';

/** What one demonstration does: a search, then a fetch of the best result. */
export interface ResearchSessionOptions {
  /** The run to use. */
  run: WebRun;
  /** The question to search for. */
  query: string;
  /** Where to print. */
  print: (text: string) => void;
}

/** The URLs of a rendered search result body, in rank order. */
export function resultUrls(searchText: string): string[] {
  return [...searchText.matchAll(/^ {3}(https?:\/\/\S+)$/gm)].map((match) => match[1]!);
}

/**
 * Runs WebSearch, then WebFetch on the top result, printing exactly what a model would read.
 * Returns whether both calls succeeded.
 */
export async function runResearchSession(options: ResearchSessionOptions): Promise<boolean> {
  const { run, query, print } = options;
  print(`\n$ WebSearch ${JSON.stringify({ query, limit: 3 })}\n`);
  const search = await run.webSearch({ query, limit: 3 });
  print(`${search.text}\n`);
  const [top] = resultUrls(search.text);
  if (search.isError || top === undefined) return false;
  print(`\n$ WebFetch ${JSON.stringify({ url: top, max_lines: 25 })}\n`);
  const fetched = await run.webFetch({ url: top, max_lines: 25 });
  print(`${fetched.text}\n`);
  return !fetched.isError;
}
