import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { parseHtmlDocument } from './parse-html-document.js';
import { placeShadowRoots } from './shadow-roots.js';

const documentOf = (html: string) =>
  parseHtmlDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);

describe('extract: shadow trees declared in the HTML', () => {
  it("reads a component's declared shadow tree where it is drawn, with the children its slots take (failing before: the shadow tree was lost)", async () => {
    const content = await markdownOf(
      '<tide-card><template shadowrootmode="open"><style>p{margin:0}</style><h3><slot name="title">Untitled</slot></h3><p>The gauge at the north pier reads the water every six minutes and sends it at once.</p><slot></slot></template>' +
        '<span slot="title">North pier gauge</span><p>Readings older than a day are averaged.</p></tide-card>' +
        '<old-card><template shadowroot="open"><p>Written with the attribute of the first browsers that drew shadow trees from the HTML.</p></template></old-card>',
    );
    expect(content).toContain('### North pier gauge');
    expect(content).toContain('The gauge at the north pier reads the water every six minutes');
    expect(content).toContain('Readings older than a day are averaged.');
    expect(content).toContain('Written with the attribute of the first browsers');
    expect(content).not.toContain('Untitled');
  });
});

describe('placeShadowRoots', () => {
  it("draws a slot's fallback when nothing is assigned to it, drops children no slot takes, and leaves other templates", async () => {
    const document = await documentOf(
      '<x-a id="a"><template shadowrootmode="open"><slot name="x"><i>fallback</i></slot></template><b>unassigned</b></x-a>' +
        '<x-b id="b"><template shadowrootmode="open"><x-c><template shadowrootmode="open"><em>inner</em><slot></slot></template><u>outer light</u></x-c></template></x-b>' +
        '<template id="t"><p>kept template</p></template>',
    );
    placeShadowRoots(document);
    expect(document.querySelector('#a')?.innerHTML).toBe('<i>fallback</i>');
    expect(document.querySelector('#b')?.textContent).toBe('innerouter light');
    expect(document.querySelector('#t')).not.toBeNull();
  });
});
