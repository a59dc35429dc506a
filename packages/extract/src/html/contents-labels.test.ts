import { describe, expect, it } from 'vitest';
import { dropContentsLabels } from './contents-labels.js';

describe('dropContentsLabels', () => {
  it.each([
    '## Table of Contents',
    '**In this article**',
    'On this page',
    '### Jump to:',
    '__Inhaltsverzeichnis__',
    '##### Contents',
    '**IN THIS ARTICLE**',
  ])('drops %j over a paragraph, its list left out', (label) => {
    expect(dropContentsLabels(`# Guide\n\n${label}\n\nFirst paragraph.\n\n## Next\n\nMore.`)).toBe(
      '# Guide\n\nFirst paragraph.\n\n## Next\n\nMore.',
    );
  });

  it('drops a label at the start or at the end of the article', () => {
    expect(dropContentsLabels('Table of contents\n\nFirst paragraph.\n')).toBe('First paragraph.\n');
    expect(dropContentsLabels('Last paragraph.\n\nJump to')).toBe('Last paragraph.');
  });

  it('keeps a label over its list or its links, one inside a sentence or a paragraph, and any in code', () => {
    const markdown = [
      '## Table of Contents',
      '',
      '- [Overview](https://docs.example/#overview)',
      '',
      'Contents',
      '',
      '1. Unpack the box',
      '',
      '**Contents**',
      '',
      '**[Chapter 1: Boarding](https://forum.example/post-3)**',
      '',
      'On this page',
      '[Overview](https://docs.example/#overview)',
      '',
      'The contents of the box are listed below.',
      '',
      'In this article we look at contents.',
      '',
      '```',
      '',
      'Contents',
      '',
      '```',
    ].join('\n');
    expect(dropContentsLabels(markdown)).toBe(markdown);
  });
});
