import { afterEach, describe, expect, it } from 'vitest';
import { findBrokenLinks, headingAnchors } from './markdown-links.js';
import { type ThrowawayWorkspace, writeWorkspace } from './throwaway-workspace.js';
import { repositoryRoot } from './workspace-packages.js';

let workspace: ThrowawayWorkspace | undefined;
afterEach(() => workspace?.remove());

describe('relative links in Markdown', () => {
  it('all resolve in this repository, anchors included', () => {
    expect(findBrokenLinks(repositoryRoot)).toEqual([]);
  });

  it('are reported when the file or the heading is missing, and ignored in code and on the web', () => {
    workspace = writeWorkspace({
      'docs/guide.md': '# Guide\n\n## Two `words` here\n',
      'README.md': [
        '[ok](docs/guide.md) [ok too](docs/guide.md#two-words-here) [web](https://example.com/x.md)',
        '[gone](docs/missing.md)',
        '[wrong heading](docs/guide.md#three-words)',
        '```md',
        '[in a fence](nowhere.md)',
        '```',
        'and `[inline](nowhere.md)` code',
        '[ref]: ./docs/also-missing.md',
        '[^note]: A footnote, whose first word is no link.',
      ].join('\n'),
    });
    expect(findBrokenLinks(workspace.root)).toEqual([
      { file: 'README.md', line: 2, target: 'docs/missing.md', reason: 'no such file' },
      {
        file: 'README.md',
        line: 3,
        target: 'docs/guide.md#three-words',
        reason: 'no heading with anchor #three-words',
      },
      { file: 'README.md', line: 8, target: './docs/also-missing.md', reason: 'no such file' },
    ]);
  });
});

describe('heading anchors', () => {
  it('follow the host’s rules: lower case, punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect([
      ...headingAnchors('# Browser rendering\n## `fetch.render`: auto?\n## Notes\n## Notes\n'),
    ]).toEqual(['browser-rendering', 'fetchrender-auto', 'notes', 'notes-1']);
  });
});
