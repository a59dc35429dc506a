import type { Document } from 'domhandler';
import { elementText, findElement, hasClass } from './html-query.js';

/** A block marker found in a page, with the signal kind it belongs to. */
export interface ChallengeMarker {
  /** `challenge` for captchas and bot checks, `proof_of_work` for computational interstitials. */
  signal: 'challenge' | 'proof_of_work';
  /** What was found, for the outcome's reason. */
  description: string;
}

/**
 * DuckDuckGo's bot check: the `challenge-form` posting to `anomaly.js` and the `anomaly-modal`
 * widgets around the duck puzzle.
 */
export function findDuckDuckGoChallenge(document: Document): ChallengeMarker | undefined {
  const element = findElement(
    document,
    (candidate) =>
      candidate.attribs['id'] === 'challenge-form' ||
      (candidate.name === 'form' && (candidate.attribs['action'] ?? '').includes('/anomaly.js')) ||
      hasClass(candidate, 'anomaly-modal__modal'),
  );
  if (element !== undefined) {
    return { signal: 'challenge', description: 'DuckDuckGo bot challenge (challenge-form / anomaly.js)' };
  }
  if (elementText(document).includes('bots use DuckDuckGo too')) {
    return { signal: 'challenge', description: 'DuckDuckGo bot challenge text' };
  }
  return undefined;
}

const captchaAttributes = ['id', 'class', 'action', 'src', 'href'] as const;

/**
 * A captcha in the page: Startpage's `/sp/captcha` form or links, or any element whose id, class or
 * target names a captcha (reCAPTCHA, hCaptcha and the like); also a page served from a captcha URL.
 */
export function findCaptcha(document: Document, url: string | undefined): ChallengeMarker | undefined {
  if (url !== undefined && /\/sp\/captcha/i.test(url)) {
    return { signal: 'challenge', description: 'page served from a captcha URL' };
  }
  const element = findElement(document, (candidate) =>
    captchaAttributes.some((name) => /captcha/i.test(candidate.attribs[name] ?? '')),
  );
  if (element === undefined) return undefined;
  return { signal: 'challenge', description: `captcha element <${element.name}>` };
}

const interstitialPhrases = [
  // Anubis's challenge page title (English locale).
  "making sure you're not a bot",
  // A generic wording of proof-of-work and browser-check interstitials.
  'verifying your request',
];

/**
 * A proof-of-work interstitial: Anubis (its `anubis_challenge` data script or assets under
 * `/.within.website/`), or a page announcing that the request is being verified.
 */
export function findProofOfWorkInterstitial(document: Document): ChallengeMarker | undefined {
  const anubis = findElement(
    document,
    (candidate) =>
      candidate.attribs['id'] === 'anubis_challenge' ||
      [candidate.attribs['src'], candidate.attribs['href']].some((value) =>
        value?.includes('/.within.website/'),
      ),
  );
  if (anubis !== undefined) return { signal: 'proof_of_work', description: 'Anubis proof-of-work challenge' };
  const text = elementText(document).toLowerCase().replaceAll('\u2019', "'");
  const phrase = interstitialPhrases.find((candidate) => text.includes(candidate));
  if (phrase === undefined) return undefined;
  return { signal: 'proof_of_work', description: `proof-of-work interstitial ("${phrase}")` };
}
