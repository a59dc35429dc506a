import { describe, expect, it } from 'vitest';
import { readFixture } from './__fixtures__/read-fixture.js';
import { findCaptcha, findDuckDuckGoChallenge, findProofOfWorkInterstitial } from './challenge-markers.js';
import { parseHtml } from './html-query.js';

const realResultPages = [
  'lofi_duckduckgo-html-get-foo.html',
  'clele_results-200.html',
  'websearchmcp_startpage-browser.html',
  'websearchmcp_startpage-http.html',
];

describe('findDuckDuckGoChallenge', () => {
  it('finds the real challenge page', () => {
    expect(findDuckDuckGoChallenge(parseHtml(readFixture('clele_challenge-202.html')))).toMatchObject({
      signal: 'challenge',
    });
  });

  it.each([
    ['the challenge form', '<form id="challenge-form" method="POST"></form>'],
    ['a form posting to anomaly.js', '<form action="//duckduckgo.com/anomaly.js?sv=html"></form>'],
    ['the anomaly modal', '<div class="anomaly-modal__modal  is-ie"></div>'],
    ['the challenge text', '<p>Unfortunately, bots use DuckDuckGo too.</p>'],
  ])('finds %s alone', (_, html) => {
    expect(findDuckDuckGoChallenge(parseHtml(html))).toMatchObject({ signal: 'challenge' });
  });
});

describe('findCaptcha', () => {
  it('finds the derived Startpage captcha form', () => {
    expect(findCaptcha(parseHtml(readFixture('derived/startpage-captcha.html')), undefined)).toMatchObject({
      signal: 'challenge',
    });
  });

  it('finds a page served from the captcha URL', () => {
    expect(findCaptcha(parseHtml(''), 'https://www.startpage.com/sp/captcha?bc=1')).toMatchObject({
      signal: 'challenge',
    });
  });

  it.each([
    ['a reCAPTCHA widget', '<div class="g-recaptcha" data-sitekey="k"></div>'],
    ['an hCaptcha frame', '<iframe src="https://newassets.hcaptcha.com/captcha/v1/x"></iframe>'],
    ['a captcha link', '<a href="/sp/captcha-block?bc=XX">continue</a>'],
  ])('finds %s', (_, html) => {
    expect(findCaptcha(parseHtml(html), undefined)).toMatchObject({ signal: 'challenge' });
  });
});

describe('findProofOfWorkInterstitial', () => {
  it('finds the derived Anubis page', () => {
    expect(findProofOfWorkInterstitial(parseHtml(readFixture('derived/anubis-challenge.html')))).toEqual({
      signal: 'proof_of_work',
      description: 'Anubis proof-of-work challenge',
    });
  });

  it.each([
    ['the Anubis data script', '<script id="anubis_challenge" type="application/json">{}</script>'],
    ['Anubis assets', '<script src="/.within.website/x/cmd/anubis/static/js/main.mjs"></script>'],
    ['the Anubis title', '<title>Making sure you&rsquo;re not a bot!</title>'],
    ['the generic wording', '<p>Verifying   your request&hellip;</p>'],
  ])('finds %s alone', (_, html) => {
    expect(findProofOfWorkInterstitial(parseHtml(html))).toMatchObject({ signal: 'proof_of_work' });
  });
});

describe.each(realResultPages)('no marker in the real result page %s', (name) => {
  const document = parseHtml(readFixture(name));

  it('carries no challenge, captcha or interstitial marker', () => {
    expect(findDuckDuckGoChallenge(document)).toBeUndefined();
    expect(findCaptcha(document, undefined)).toBeUndefined();
    expect(findProofOfWorkInterstitial(document)).toBeUndefined();
  });
});
