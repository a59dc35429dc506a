import { describe, expect, it } from 'vitest';
import { revealDisclosurePanels, revealStyledParts } from './disclosure-panels.js';
import { parseHtmlDocument } from './parse-html-document.js';

const shown = (document: Document, id: string) => {
  const element = document.getElementById(id);
  return (
    element !== null && !element.hasAttribute('hidden') && element.getAttribute('aria-hidden') !== 'true'
  );
};

/** A document of the given pieces of markup, one after the other. */
const page = (...pieces: string[]) => parseHtmlDocument(pieces.join(''));

describe('revealDisclosurePanels', () => {
  it("shows accordion regions and tab panels, by role or by a control's aria-controls", async () => {
    const document = await page(
      '<main><h3><button aria-expanded="false" aria-controls="answer-1">Is my dog covered abroad?</button></h3>',
      '<div id="answer-1" hidden><p>Yes, for trips of up to ninety days.</p></div>',
      '<div role="region" aria-hidden="true" id="answer-2"><p>Claims are paid within ten days.</p></div>',
      '<div role="tabpanel" hidden id="yearly"><p>Yearly plans cost less per month.</p></div></main>',
    );
    expect(revealDisclosurePanels(document)).toBe(3);
    for (const id of ['answer-1', 'answer-2', 'yearly']) expect(shown(document, id)).toBe(true);
  });

  it("drops the orientation of a widget whose panels hold the page's text, from every part of it", async () => {
    const document = await page(
      '<main><div id="root" data-orientation="vertical"><div id="item" data-orientation="vertical">',
      '<h3 id="heading" data-orientation="vertical"><button aria-controls="r1" data-orientation="vertical">Description</button></h3>',
      '<div id="r1" role="region" data-orientation="vertical"><p>A lantern for the trail and the tent.</p></div>',
      '</div></div>',
      '<div id="tabs" data-orientation="horizontal"><div role="tablist" data-orientation="horizontal"></div>',
      '<div role="tabpanel" data-orientation="horizontal" hidden><p>Nine hours on the low setting.</p></div></div></main>',
    );
    revealDisclosurePanels(document);
    expect(document.querySelectorAll('[data-orientation]').length).toBe(0);
  });

  it('keeps the orientation of menus, filters, separators and widgets without text', async () => {
    const document = await page(
      '<header><nav data-orientation="horizontal"><div role="region" id="menu-panel"><p>Shop all lanterns and lights.</p></div></nav></header>',
      '<main><div id="filters" data-orientation="vertical"><div role="region"><label><input type="checkbox"> Two legs</label><label><input type="checkbox"> Four legs</label></div></div>',
      '<div id="facets" data-orientation="vertical"><div role="region"><button role="checkbox" aria-checked="false"></button><span>Oak top</span></div></div>',
      '<div id="separator" data-orientation="horizontal" role="none"></div>',
      '<div id="links" data-orientation="vertical"><div role="region"><a href="/a">Lanterns</a> <a href="/b">Headlamps</a></div></div>',
      '<div id="empty" data-orientation="vertical"><div role="region"></div></div>',
      '<p>The lantern throws a warm light across a tent.</p></main>',
    );
    revealDisclosurePanels(document);
    const kept = Array.from(document.querySelectorAll('[data-orientation]')).map(
      (element) => element.id || element.localName,
    );
    expect(kept).toEqual(['nav', 'filters', 'facets', 'separator', 'links', 'empty']);
  });

  it('reads hostile numbers of oriented parts in one pass: 20,000 items, 3,000 levels deep', async () => {
    const items = await page(
      `<main><div data-orientation="vertical">${'<div data-orientation="vertical"><h3 data-orientation="vertical">Q</h3><div role="region" data-orientation="vertical"><p>An answer of a few words.</p></div></div>'.repeat(20_000)}</div></main>`,
    );
    revealDisclosurePanels(items);
    expect(items.querySelector('[data-orientation]')).toBeNull();
    const deep = await page(
      `<main>${'<div data-orientation="vertical"><p>x</p>'.repeat(3_000)}${'</div>'.repeat(3_000)}<div role="region"><p>Text outside them.</p></div></main>`,
    );
    revealDisclosurePanels(deep);
    expect(deep.querySelectorAll('[data-orientation]').length).toBe(3_000);
  });

  it('leaves hidden menus, dialogs, chrome and other hidden elements as they are', async () => {
    const document = await page(
      '<header><button aria-controls="search">Search</button><div id="search" hidden><p>Search the whole site by keyword.</p></div></header>',
      '<button aria-controls="products">Products</button><div id="products" hidden><ul><li><a href="/a">Dog insurance plans</a></li><li><a href="/b">Cat insurance plans</a></li></ul><p>New</p></div>',
      '<div role="dialog" aria-hidden="true"><div role="region" id="cookies" aria-hidden="true"><p>We use cookies to measure visits.</p></div></div>',
      '<div id="promo" hidden><p>Save ten percent today.</p></div>',
      '<div role="tabpanel" id="empty" hidden></div>',
      '<span aria-hidden="true" id="icon">→</span>',
    );
    expect(revealDisclosurePanels(document)).toBe(0);
    for (const id of ['search', 'products', 'cookies', 'promo', 'empty', 'icon'])
      expect(shown(document, id)).toBe(false);
  });

  it('shows a panel whose links are at most half its text, and not one past that', async () => {
    // 20 characters of text, 10 of them in the link: exactly half.
    const half = await parseHtmlDocument(
      '<div role="tabpanel" hidden id="p">aaaaaaaaaa<a href="/x">bbbbbbbbbb</a></div>',
    );
    expect(revealDisclosurePanels(half)).toBe(1);
    const past = await parseHtmlDocument(
      '<div role="tabpanel" hidden id="p">aaaaaaaaa<a href="/x">bbbbbbbbbb</a></div>',
    );
    expect(revealDisclosurePanels(past)).toBe(0);
  });
});

describe('revealDisclosurePanels: controls', () => {
  it("turns a shown panel's button and a heading's button into text, and leaves other buttons", async () => {
    const document = await page(
      '<h3><button aria-expanded="false" aria-controls="a1">Is my dog <b>covered</b> abroad?</button></h3><div id="a1" hidden><p>Yes.</p></div>',
      '<button class="toggle" aria-controls="a2">How are claims paid?</button><div id="a2" role="region" hidden><p>By transfer.</p></div>',
      '<h2><button>Plans</button></h2>',
      '<button aria-controls="menu">Menu</button><div id="menu" hidden><a href="/a">All plans and prices</a></div>',
      '<button>Get a quote</button>',
    );
    revealDisclosurePanels(document);
    expect(Array.from(document.querySelectorAll('button'), (button) => button.textContent)).toEqual([
      'Menu',
      'Get a quote',
    ]);
    expect(document.querySelector('h3')?.innerHTML).toBe('Is my dog <b>covered</b> abroad?');
    expect(document.body.textContent).toContain('How are claims paid?');
    expect(document.querySelector('h2')?.textContent).toBe('Plans');
  });
});

describe('revealStyledParts: fade-ins', () => {
  const opacity = (document: Document, id: string) => document.getElementById(id)?.getAttribute('style');

  it('drops a zero opacity from the inline style of text a page fades in, and keeps the rest', async () => {
    const document = await page(
      '<main><div id="a" style="opacity:0;transform:translate3d(0, 24px, 0)"><p>Noise cancellation twice as strong.</p></div>',
      '<p id="b" style="opacity: 0.0 !important">Up to eight hours of listening.</p>',
      '<p id="c" style="color: red; OPACITY:.0">Hearing test at home.</p>',
      '<p id="d" style="opacity: 0%">Made with recycled materials.</p></main>',
    );
    expect(revealStyledParts(document)).toBe(4);
    expect(opacity(document, 'a')).toBe(';transform:translate3d(0, 24px, 0)');
    expect(opacity(document, 'b')).toBe('');
    expect(opacity(document, 'c')).toBe('color: red;');
    expect(opacity(document, 'd')).toBe('');
  });

  it('leaves visible, hidden, empty, chrome and link-menu elements as they are', async () => {
    const styles: Record<string, string> = {
      half: 'opacity: 0.5',
      tenth: 'opacity:0.01',
      none: 'opacity:0;display:none',
      invisible: 'visibility: hidden; opacity: 0',
      empty: 'opacity:0',
      menu: 'opacity:0',
      dialog: 'opacity:0',
      header: 'opacity:0',
    };
    const document = await page(
      `<p id="half" style="${styles.half}">Half seen.</p><p id="tenth" style="${styles.tenth}">Barely seen.</p>`,
      `<p id="none" style="${styles.none}">Not shown.</p><p id="invisible" style="${styles.invisible}">Not shown either.</p>`,
      `<div id="empty" style="${styles.empty}"></div>`,
      `<div id="menu" style="${styles.menu}"><a href="/a">All headphones</a> <a href="/b">All speakers</a> New</div>`,
      `<div role="dialog"><p id="dialog" style="${styles.dialog}">Sign up for our newsletter.</p></div>`,
      `<header><p id="header" style="${styles.header}">Free delivery on every order.</p></header>`,
    );
    expect(revealStyledParts(document)).toBe(0);
    for (const [id, style] of Object.entries(styles)) expect(opacity(document, id)).toBe(style);
  });
});

describe('revealStyledParts: folded parts', () => {
  const style = (document: Document, id: string) => document.getElementById(id)?.getAttribute('style');

  it('shows what an accordion, expander or tab pane named by class folds away with display: none', async () => {
    const document = await page(
      '<div class="faq"><h3 class="faq__question">Can I pay by invoice?</h3><div id="a" class="faq__answer" style="display:none">Yes, on every yearly plan.</div></div>',
      '<div class="es-accordion"><div id="b" style="padding: 4px; display: none !important">Week one: read your bill.</div></div>',
      '<div class="tab-panes"><div id="c" class="tab-pane" style="DISPLAY:none;color:red">Reviews of the card.</div></div>',
      '<div id="d" class="a-expander-content" style="display:none">How ratings are counted.</div>',
    );
    expect(revealStyledParts(document)).toBe(4);
    expect(style(document, 'a')).toBe('');
    expect(style(document, 'b')).toBe('padding: 4px;');
    expect(style(document, 'c')).toBe(';color:red');
    expect(style(document, 'd')).toBe('');
  });

  it('leaves other hidden elements, chrome, link menus and empty panels hidden', async () => {
    const styles: Record<string, string> = {
      promo: 'display:none',
      visible: 'display:block',
      menu: 'display:none',
      header: 'display:none',
      empty: 'display:none',
      grand: 'display:none',
    };
    const document = await page(
      `<div class="promo" id="promo" style="${styles.promo}">Save ten percent today.</div>`,
      `<div class="accordion"><p id="visible" style="${styles.visible}">Shown already.</p></div>`,
      `<div class="toggle-menu" id="menu" style="${styles.menu}"><a href="/a">All plans</a> <a href="/b">All prices</a></div>`,
      `<header><div class="accordion"><p id="header" style="${styles.header}">Free delivery.</p></div></header>`,
      `<div class="accordion"><div id="empty" style="${styles.empty}"></div></div>`,
      `<div class="accordion"><div><p id="grand" style="${styles.grand}">Only a grandparent is named.</p></div></div>`,
    );
    expect(revealStyledParts(document)).toBe(0);
    for (const [id, value] of Object.entries(styles)) expect(style(document, id)).toBe(value);
  });
});
