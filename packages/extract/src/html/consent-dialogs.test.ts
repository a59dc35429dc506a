import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { CONSENT_DIALOG_MARKUP, dropConsentDialogs } from './consent-dialogs.js';

const body = (html: string) => {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  dropConsentDialogs(document as unknown as Document);
  return document.body.innerHTML;
};

const PURPOSES =
  '<p>We and our partners store cookies on your device to measure traffic and show adverts.</p>';

describe('dropConsentDialogs', () => {
  it.each([
    ['a region marked modal', `<div role="region" aria-modal="true">${PURPOSES}</div>`],
    ['the dialog role', `<div role="dialog">${PURPOSES}</div>`],
    ['the alertdialog role', `<section role="alertdialog">${PURPOSES}</section>`],
    ['the dialog element', `<dialog>${PURPOSES}</dialog>`],
  ])('removes %s that speaks of cookies', (_, dialog) => {
    expect(body(`<p>Story.</p>${dialog}`)).toBe('<p>Story.</p>');
  });

  it('removes the outer of nested consent dialogs once', () => {
    const html = `<div role="dialog"><div aria-modal="true">${PURPOSES}</div></div><p>Story.</p>`;
    expect(body(html)).toBe('<p>Story.</p>');
  });

  it("keeps a shop's quick view of cookies, which asks for no consent", () => {
    const html =
      '<div role="dialog" aria-modal="true"><h2>Oat cookies, box of 12</h2><p>Baked on Fridays. €6.50</p></div>';
    expect(body(html)).toBe(html);
  });

  it('removes a cookie bar marked modal that asks the reader to accept', () => {
    const html =
      '<div aria-modal="true">This website uses <a href="/cookie-policy">cookies</a> <a>Settings</a><a>Accept</a></div>';
    expect(body(`<p>Story.</p>${html}`)).toBe('<p>Story.</p>');
  });

  it('removes a consent dialog written in German', () => {
    const html =
      '<div role="dialog"><p>Wir verwenden Cookies. Ihre Einwilligung können Sie jederzeit widerrufen (Datenschutz).</p></div>';
    expect(body(`<p>Story.</p>${html}`)).toBe('<p>Story.</p>');
  });

  it('keeps a modal that does not speak of cookies (a newsletter sign-up, an image viewer)', () => {
    const html = '<div role="dialog"><p>Get the morning briefing in your inbox.</p></div>';
    expect(body(html)).toBe(html);
  });

  it('keeps a modal that holds the page itself, and a cookie mention outside any dialog', () => {
    const page = `<div role="dialog" aria-modal="true"><h1>Oat cookies</h1><p>Bake the cookies for twelve minutes.</p></div>`;
    expect(body(page)).toBe(page);
    const story =
      '<main><p>Bake the cookies for twelve minutes.</p></main><footer>This site uses cookies.</footer>';
    expect(body(story)).toBe(story);
  });

  it('is looked for only on pages that say "cookie" somewhere', () => {
    expect(CONSENT_DIALOG_MARKUP.test('<div id="onetrust-consent-sdk">Cookie settings</div>')).toBe(true);
    expect(CONSENT_DIALOG_MARKUP.test('<div role="dialog">Sign up</div>')).toBe(false);
  });
});
