import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { isInertTarget, unwrapInertLinks } from './inert-links.js';

const page = (body: string) =>
  parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`).document as unknown as Document;

describe('isInertTarget', () => {
  it.each([
    '#',
    '#!',
    'javascript:void(0);',
    'javascript:;',
    'JavaScript:void(0)',
    ' # ',
    'java\tscript:void(0)',
  ])('%j goes nowhere', (href) => expect(isInertTarget(href)).toBe(true));
  it.each(['', '#answers', '#!/route', '/faq/', 'https://example.com/#', '?page=2'])(
    '%j is a target',
    (href) => expect(isInertTarget(href)).toBe(false),
  );
});

describe('unwrapInertLinks', () => {
  it('makes the inert link inside a heading and the one around a heading plain text, keeping their other attributes', () => {
    const document = page(
      '<h5><a href="#" class="question" id="q1">How often is payroll run?</a></h5>' +
        '<a href="javascript:void(0);" aria-controls="a2" aria-expanded="false"><h3>Can we switch?</h3><span class="icon"></span></a>',
    );
    expect(unwrapInertLinks(document)).toBe(2);
    const [question, control] = Array.from(document.body.children);
    expect(question?.outerHTML).toMatch(/^<h5><span [^>]+>How often is payroll run\?<\/span><\/h5>$/);
    expect(question?.querySelector('span')?.getAttribute('class')).toBe('question');
    expect(question?.querySelector('span')?.id).toBe('q1');
    expect(control?.localName).toBe('span');
    expect(control?.getAttribute('aria-controls')).toBe('a2');
    expect(control?.hasAttribute('href')).toBe(false);
    expect(control?.innerHTML).toBe('<h3>Can we switch?</h3><span class="icon"></span>');
    expect(document.querySelector('a')).toBeNull();
  });

  it('leaves links with a target, in-page ones included, and inert links away from headings (a menu) as links', () => {
    const body =
      '<h2><a href="#pricing">Pricing</a></h2><h3><a href="/faq/">All questions</a></h3>' +
      '<nav><ul><li><a href="#">Products</a></li><li><a href="javascript:void(0)">Solutions</a></li></ul></nav>' +
      '<p>See <a href="#">the table</a>.</p>';
    const document = page(body);
    expect(unwrapInertLinks(document)).toBe(0);
    expect(document.body.innerHTML).toBe(body);
  });

  it('a link without an href is no inert link to unwrap', () => {
    const document = page('<h4><a name="top">Top</a></h4>');
    expect(unwrapInertLinks(document)).toBe(0);
    expect(document.querySelector('h4 a')?.textContent).toBe('Top');
  });
});
