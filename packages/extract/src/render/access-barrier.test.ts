import { describe, expect, it } from 'vitest';
import { detectAccessBarrier, SIGN_IN_PAGE_MAX_VISIBLE_CHARS } from './access-barrier.js';

const page = (title: string, body: string, head = '') =>
  `<html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
const loginForm =
  '<h1>Sign in</h1><form><input type="email" name="email"><input type="password" name="password"><button>Log in</button></form>';

describe('detectAccessBarrier', () => {
  it('reports a sign-in wall as authentication_required', () => {
    expect(detectAccessBarrier(page('Sign in', loginForm))?.code).toBe('authentication_required');
  });

  it('reads a long page with a sign-in box as content', () => {
    const justUnder = 'w'.repeat(SIGN_IN_PAGE_MAX_VISIBLE_CHARS - 40);
    const long = 'w'.repeat(SIGN_IN_PAGE_MAX_VISIBLE_CHARS);
    expect(detectAccessBarrier(page('News', `<article>${justUnder}</article>${loginForm}`))?.code).toBe(
      'authentication_required',
    );
    expect(detectAccessBarrier(page('News', `<article>${long}</article>${loginForm}`))).toBeUndefined();
  });

  it('reports challenge titles and widgets as access_challenge', () => {
    expect(detectAccessBarrier(page('Just a moment...', '<p>Checking</p>'))?.code).toBe('access_challenge');
    expect(detectAccessBarrier(page('Attention Required! | Cloudflare', ''))?.code).toBe('access_challenge');
    expect(
      detectAccessBarrier(page('Welcome', '<div class="g-recaptcha" data-sitekey="k"></div>'))?.code,
    ).toBe('access_challenge');
    expect(detectAccessBarrier(page('Welcome', '<div class="cf-turnstile"></div>'))?.code).toBe(
      'access_challenge',
    );
  });

  it('leaves ordinary pages alone', () => {
    expect(
      detectAccessBarrier(page('How to log in to a server with SSH', '<p>Use ssh user@host.</p>')),
    ).toBeUndefined();
    expect(detectAccessBarrier(page('Article', '<p>Text</p>'))).toBeUndefined();
  });
});
