import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { dropRepeatedQuotes, REPEATED_QUOTE_MIN_SHARE } from './repeated-quotes.js';

const question =
  'My kettle clicks off before the water boils and the light stays on afterwards, is the thermostat worn out';

describe('dropRepeatedQuotes', () => {
  it('drops a quotation of text given before it, keeping who is quoted', () => {
    const markdown = [
      question,
      '',
      '> [Ann said:](https://forum.example/post/1)',
      '>',
      `> ${question}`,
      '',
      'Descale it first: scale on the sensor makes it switch off early.',
    ].join('\n');
    expect(dropRepeatedQuotes(markdown)).toBe(
      [
        question,
        '',
        '> [Ann said:](https://forum.example/post/1)',
        '',
        'Descale it first: scale on the sensor makes it switch off early.',
      ].join('\n'),
    );
  });

  it('keeps quotations of new text, and the first of two alike', () => {
    const news = `> ${question}\n\nA reply.`;
    expect(dropRepeatedQuotes(news)).toBe(news);
    const twice = `> ${question}\n\nA reply.\n\n> ${question}`;
    expect(dropRepeatedQuotes(twice)).toBe(`> ${question}\n\nA reply.`);
  });

  it('drops at the share of repeated trigrams, keeps below it', () => {
    const repeated = question.split(' ');
    // 20 words: 18 trigrams. A quote of the first n words followed by fresh ones.
    const quote = (shared: number) =>
      `> ${[...repeated.slice(0, shared + 2), ...Array.from({ length: 20 - shared - 2 }, (_, i) => `fresh${i}`)].join(' ')}`;
    const trigrams = 18;
    const atShare = Math.ceil(REPEATED_QUOTE_MIN_SHARE * trigrams);
    expect(dropRepeatedQuotes(`${question}\n\n${quote(atShare)}`)).toBe(question);
    expect(dropRepeatedQuotes(`${question}\n\n${quote(atShare - 1)}`)).toBe(
      `${question}\n\n${quote(atShare - 1)}`,
    );
  });

  it('never reads a code block’s lines as a quotation', () => {
    const markdown = `${question}\n\n\`\`\`text\n> ${question}\n\`\`\``;
    expect(dropRepeatedQuotes(markdown)).toBe(markdown);
  });
});

describe('extractHtml: a thread whose replies quote the posts they answer', () => {
  it('reads each post once', async () => {
    const post = (author: string, body: string) =>
      `<article class="message"><h4>${author}</h4><div class="message-body">${body}</div></article>`;
    const first = `<p>${question}? It is two years old and I descale it every month.</p>`;
    const html = `<!doctype html><html><head><title>Kettle clicks off early</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Kettle clicks off early"}</script>
</head><body><main><h1>Kettle clicks off early</h1>
${post('Ann', first)}
${post('Bo', `<blockquote><a href="/post/1">Ann said:</a><div>${first}</div></blockquote><p>Mine did the same until I replaced the base; the contacts had burnt.</p>`)}
${post('Cy', `<blockquote><a href="/post/1">Ann said:</a><div>${first}</div></blockquote><p>Check the lid closes fully, steam escaping trips the sensor early.</p>`)}
</main></body></html>`;
    const article = await extractHtml(html, 'https://forum.example/t/kettle');
    expect(article.text.split('descale it every month')).toHaveLength(2);
    expect(article.text).toContain('contacts had burnt');
    expect(article.text).toContain('steam escaping');
    expect(article.markdown).toContain('Ann said:');
  });
});
