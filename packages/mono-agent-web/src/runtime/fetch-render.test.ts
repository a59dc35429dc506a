import { describe, expect, it } from 'vitest';
import {
  browserRecommendationFor,
  effectiveRenderMode,
  rememberRender,
  renderReport,
} from './fetch-render.js';

const shell = {
  sparseShell: { textChars: 10, visibleChars: 10, markers: ['empty-mount-point' as const], sparse: true },
};
const article = { sparseShell: { textChars: 900, visibleChars: 900, markers: [], sparse: false } };

describe('render precedence', () => {
  it('config never is a ceiling over every call', () => {
    for (const requested of [undefined, 'never', 'auto', 'always'] as const) {
      expect(effectiveRenderMode('never', requested, 'markdown')).toBe('never');
    }
  });

  it('under config auto the call decides; no argument means auto, except for raw', () => {
    expect(effectiveRenderMode('auto', undefined, 'markdown')).toBe('auto');
    expect(effectiveRenderMode('auto', undefined, 'raw')).toBe('never');
    expect(effectiveRenderMode('auto', 'never', 'text')).toBe('never');
    expect(effectiveRenderMode('auto', 'always', 'text')).toBe('always');
  });

  it('recommends a browser only for an unrendered shell, naming who can act', () => {
    expect(browserRecommendationFor('never', false, shell)).toBe('enable_rendering');
    expect(browserRecommendationFor('auto', false, shell)).toBe('request_rendering');
    expect(browserRecommendationFor('auto', true, shell)).toBeUndefined();
    expect(browserRecommendationFor('never', false, article)).toBeUndefined();
    expect(browserRecommendationFor('never', false, {})).toBeUndefined();
  });

  it('a cache hit still says how the document was made, without claiming the render time', () => {
    const document = { ...article };
    rememberRender(document, { rendered: true, renderReason: 'sparse_shell', renderMs: 1234.4 });
    expect(renderReport('auto', document, false)).toEqual({
      renderInfo: { rendered: true, renderReason: 'sparse_shell' },
      renderMs: 1234,
    });
    expect(renderReport('auto', document, true).renderMs).toBeUndefined();
    expect(renderReport('never', { ...shell }, false).renderInfo).toEqual({
      rendered: false,
      browserRecommendation: 'enable_rendering',
    });
  });
});
