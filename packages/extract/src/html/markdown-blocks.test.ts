import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

const markdownOf = (html: string) => htmlToMarkdown(html, 'https://example.org/news/');

describe('htmlToMarkdown: headings, list items and emphasis around blocks', () => {
  it('writes a heading holding a block on one line (failing before: a bare "###" line above its link)', async () => {
    expect(
      await markdownOf(
        '<h3 class="card__title"><div class="card__icon"><img src="bolt.svg"></div>\n<a href="/2026/03/07/pay-package/">A pay package for the chief executive</a></h3><p>The board approved it.</p>',
      ),
    ).toBe(
      '### [A pay package for the chief executive](https://example.org/2026/03/07/pay-package/)\n\nThe board approved it.',
    );
    expect(
      await markdownOf(
        '<h2><a href="/guide/"><div><span>Spring</span></div><div>planting guide</div></a></h2>',
      ),
    ).toBe('## [Spring planting guide](https://example.org/guide/)');
  });

  it("writes a heading nested in another as its text, on the outer heading's line", async () => {
    expect(
      await markdownOf(
        '<h1><h2><strong><a href="/case/accuracy">Accuracy at scale</a></strong></h2></h1><p>Case study.</p>',
      ),
    ).toBe('# **[Accuracy at scale](https://example.org/case/accuracy)**\n\nCase study.');
    expect(await markdownOf('<h3>#1 in sales, #2 in reviews</h3>')).toBe('### #1 in sales, #2 in reviews');
  });

  it('writes the paragraphs that a heading left open took in as paragraphs after it', async () => {
    const story = [
      'Whether you are for or against the plan, nobody denies the epidemiologist has become a household name.',
      'Strange tattoos are plentiful around the world, but you would be hard pressed to find one of him.',
      'On Monday a young admirer had a portrait of his face inked on his left arm.',
    ];
    expect(await markdownOf(`<h2>${story.map((text) => `<p>${text}</p>`).join('')}</h2>`)).toBe(
      `## ${story[0]}\n\n${story[1]}\n\n${story[2]}`,
    );
    expect(await markdownOf('<h2><span>1</span><div>Tell us about yourself</div></h2>')).toBe(
      '## 1 Tell us about yourself',
    );
  });

  it('writes nothing for a heading whose content writes nothing', async () => {
    expect(await markdownOf('<h2><div><img src="rule.png"></div></h2><p>Text after the rule.</p>')).toBe(
      'Text after the rule.',
    );
  });

  it('writes nothing for a list item whose content writes nothing (failing before: a bare "-" per logo)', async () => {
    const logos = ['acme', 'globex', 'initech'].map((name) => `<li><img src="/logos/${name}.png"></li>`);
    expect(
      await markdownOf(
        `<p>Trusted by teams at:</p><ul>${logos.join('')}<li><img src="/logos/hooli.png" alt="Hooli"></li></ul><p>Talk to us.</p>`,
      ),
    ).toBe('Trusted by teams at:\n\n- ![Hooli]\n\nTalk to us.');
    // An ordered list keeps each item's number as the page counts it.
    expect(await markdownOf('<ol><li><img src="/medal.png"></li><li>Runner-up</li><li>Third</li></ol>')).toBe(
      '2. Runner-up\n3. Third',
    );
  });

  it('starts a list item with its text when what comes first writes only a space (failing before: a bare "-" line)', async () => {
    // Cards with one stock picture: its alt text is read on the first card, and the picture writes
    // nothing on the others but the space around it.
    const card = (title: string) =>
      `<li><div class="thumb">\n\t<img src="/a.png" alt=""> <img src="/stock.png" alt="Two figures among green blocks">\t</div><div><a href="/topic/">Topic</a></div><h2>${title}</h2></li>`;
    expect(await markdownOf(`<ul>${card('First story')}${card('Second story')}</ul>`)).toBe(
      [
        '- ![Two figures among green blocks]',
        '',
        '    [Topic](https://example.org/topic/)',
        '',
        '    ## First story',
        '',
        '- [Topic](https://example.org/topic/)',
        '',
        '    ## Second story',
      ].join('\n'),
    );
  });

  it('escapes a line that is only a list marker, which Markdown would read as an empty list item', async () => {
    expect(
      await markdownOf(
        '<div><div class="step">1.</div><div>Whisk the eggs.</div></div><div><div>+</div><div>$30 bonus card</div></div><ol><li>Real item</li></ol>',
      ),
    ).toBe('1\\.\n\nWhisk the eggs.\n\n\\+\n\n$30 bonus card\n\n1. Real item');
    // A number or a plus inside a line stays as it is, and so does code.
    expect(
      await markdownOf(
        '<p>Then 1.</p><p>Press Win <b>+</b> Space</p><p><b>2.</b> <b>Serve</b></p><pre><code>1.\n+\n</code></pre>',
      ),
    ).toBe('Then 1.\n\nPress Win **+** Space\n\n**2.** **Serve**\n\n```\n1.\n+\n```');
  });

  it('keeps a list item whose only content is a nested list', async () => {
    expect(
      await markdownOf('<ul><li><ul><li>Inner one</li><li>Inner two</li></ul></li><li>Outer</li></ul>'),
    ).toBe('- -   Inner one\n    - Inner two\n- Outer');
  });

  it('writes bold or italics around a block as the block alone (failing before: "**" lines around it)', async () => {
    expect(
      await markdownOf(
        '<div><strong><figure><img alt="A traveler below a waterfall" src="falls.jpg"></figure></strong>Driving there takes a day.</div>',
      ),
    ).toBe('![A traveler below a waterfall]\n\nDriving there takes a day.');
    expect(await markdownOf('<em><p>First paragraph.</p><p>Second paragraph.</p></em>')).toBe(
      'First paragraph.\n\nSecond paragraph.',
    );
  });

  it('keeps bold and italics inside a line, and across a line break', async () => {
    expect(await markdownOf('<p>Comfort with <b>planning</b> is <em>also</em> crucial.</p>')).toBe(
      'Comfort with **planning** is *also* crucial.',
    );
    expect(await markdownOf('<p><strong>Note:<br>read this first</strong> before you go.</p>')).toBe(
      '**Note:\nread this first** before you go.',
    );
    // A line break at the end of the bold text goes after the closing marks.
    expect(await markdownOf('<p><strong>Isolation<br></strong>Each queue has workers of its own.</p>')).toBe(
      '**Isolation**\nEach queue has workers of its own.',
    );
  });
});
