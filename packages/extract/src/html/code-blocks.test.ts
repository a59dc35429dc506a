import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';

describe('extract: code blocks with a toolbar', () => {
  it('writes a <code> holding a copy control and a <style> as a fenced block without either', async () => {
    const content = await markdownOf(
      '<div class="highlight"><code class="language-python"><style>.tok{color:red}</style>' +
        '<span class="copy-code" role="button">Copy</span>import os\nprint(os.getcwd())</code></div>',
    );
    expect(content).toMatch(/```python\nimport os\nprint\(os\.getcwd\(\)\)\n```/);
    expect(content).not.toMatch(/Copy|color:red/);
  });

  it('keeps a <pre> whose copy control is not a button out of its fence', async () => {
    const content = await markdownOf(
      '<pre><code>make all<div class="copy-button">Copy</div></code></pre>' +
        '<div class="code-wrap"><pre><code>make install</code></pre><div class="clipboard-copy">Copied!</div></div>',
    );
    expect(content).toContain('```\nmake all\n```');
    expect(content).toContain('```\nmake install\n```');
    expect(content).not.toMatch(/Copy|Copied/);
  });
});

describe('extract: text near a code block', () => {
  it('keeps a short paragraph a page names "copy" (its text) beside a code block', async () => {
    const content = await markdownOf(
      '<div><p class="copy">Run it twice.</p><pre><code>make all</code></pre><p>Both runs print the same summary of the harbour bridge build steps, which the next section explains in detail.</p></div>',
    );
    expect(content).toContain('Run it twice.');
    expect(content).toContain('```\nmake all\n```');
  });
});
