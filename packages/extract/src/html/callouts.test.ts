import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';

describe('extract: callouts keep their kind', () => {
  it.each([
    [
      'GitHub',
      '<div class="markdown-alert markdown-alert-note"><p class="markdown-alert-title">Note</p><p>Save the file before closing it.</p></div>',
      'NOTE',
    ],
    [
      'Docusaurus',
      '<div class="theme-admonition theme-admonition-tip admonition_x alert alert--success"><div class="admonitionHeading_y">tip</div><div class="admonitionContent_z"><p>Save the file before closing it.</p></div></div>',
      'TIP',
    ],
    [
      'Sphinx',
      '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Save the file before closing it.</p></div>',
      'WARNING',
    ],
    [
      'Obsidian',
      '<div class="callout" data-callout="important"><div class="callout-title"><div class="callout-title-inner">Important</div></div><div class="callout-content"><p>Save the file before closing it.</p></div></div>',
      'IMPORTANT',
    ],
    [
      'Quarto',
      '<div class="callout callout-style-default callout-caution callout-titled"><div class="callout-header d-flex align-content-center"><div class="callout-icon-container"><i class="callout-icon"></i></div><div class="callout-title-container flex-fill">Caution</div></div><div class="callout-body-container callout-body"><p>Save the file before closing it.</p></div></div>',
      'CAUTION',
    ],
    [
      'Starlight',
      '<aside aria-label="Tip" class="starlight-aside starlight-aside--tip"><p class="starlight-aside__title" aria-hidden="true"><svg aria-hidden="true" class="starlight-aside__icon" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"></path></svg>Tip</p><div class="starlight-aside__content"><p>Save the file before closing it.</p></div></aside>',
      'TIP',
    ],
    [
      'Bootstrap documentation',
      '<aside class="callout callout-info" role="note"><p>Save the file before closing it.</p></aside>',
      'INFO',
    ],
    [
      'MkDocs folded',
      '<details class="note"><summary>Note</summary><p>Save the file before closing it.</p></details>',
      'NOTE',
    ],
  ])('writes a %s callout as a > [!KIND] blockquote', async (_source, markup, kind) => {
    const content = await markdownOf(markup);
    expect(content).toContain(`> [!${kind}]\n> Save the file before closing it.`);
  });

  it('keeps a title that says more than the kind', async () => {
    const content = await markdownOf(
      '<div class="admonition danger"><p class="admonition-title">Data loss ahead</p><p>This deletes every row.</p></div>',
    );
    expect(content).toContain('> [!DANGER] Data loss ahead\n> This deletes every row.');
  });
});

describe('extract: folded admonitions', () => {
  it('writes a <details> whose class is a kind as a callout titled by its summary, open or not (failing before: the kind was lost)', async () => {
    const content = await markdownOf(
      '<details class="tip"><summary>Static type checking</summary><p>Checkers read the alias instead of the name.</p></details>' +
        '<details class="warning" open><summary>Slow on large tables</summary><p>Each row is validated again.</p></details>',
    );
    expect(content).toContain(
      '> [!TIP] Static type checking\n> Checkers read the alias instead of the name.',
    );
    expect(content).toContain('> [!WARNING] Slow on large tables\n> Each row is validated again.');
  });

  it("leaves a folded panel whose class names no kind, an accordion's item, as it was written", async () => {
    const content = await markdownOf(
      '<details class="api"><summary>API Documentation</summary><p>The field function.</p></details>' +
        '<details class="faq-item"><summary>When does the ferry run?</summary><p>Every hour from six.</p></details>',
    );
    for (const text of [
      'API Documentation',
      'The field function.',
      'When does the ferry run?',
      'Every hour from six.',
    ])
      expect(content).toContain(text);
    expect(content).not.toContain('> [!');
  });
});

describe("extract: VitePress's and VuePress's custom blocks as callouts", () => {
  it('writes a custom block as a callout of the kind its class gives, titled when the title says more (failing before: the kind was a line of text)', async () => {
    const content = await markdownOf(
      '<div class="tip custom-block"><p class="custom-block-title">TIP</p><p>Run the build before you deploy.</p></div>' +
        '<div class="danger custom-block"><p class="custom-block-title">Data loss ahead</p><p>This deletes every row.</p></div>' +
        '<div class="hint-container warning"><p class="hint-container-title">Warning</p><p>The bridge closes at ten.</p></div>',
    );
    expect(content).toContain('> [!TIP]\n> Run the build before you deploy.');
    expect(content).toContain('> [!DANGER] Data loss ahead\n> This deletes every row.');
    expect(content).toContain('> [!WARNING]\n> The bridge closes at ten.');
    expect(content).not.toMatch(/^TIP$/m);
  });

  it('leaves a block named custom-block without a kind (a CMS field) as it was written', async () => {
    const content = await markdownOf(
      '<div class="field field--name-body custom-block field__item"><p>The bridge closes at ten.</p></div>',
    );
    expect(content).toContain('The bridge closes at ten.');
    expect(content).not.toContain('> [!');
  });
});

describe("extract: Google's documentation asides as callouts", () => {
  it('writes an aside whose class is a kind as a callout without its bold label (failing before: the aside was dropped, words and all)', async () => {
    const content = await markdownOf(
      '<aside class="note"><strong>Note:</strong> Starting with Android 14, apps must declare the permission.</aside>' +
        '<aside class="caution"><strong>Caution:</strong><span> Do not store signing keys in the app.</span></aside>' +
        '<aside class="key-point"><b>Key point:</b> Compose works with existing views.</aside>',
    );
    expect(content).toContain('> [!NOTE]\n> Starting with Android 14, apps must declare the permission.');
    expect(content).toContain('> [!CAUTION]\n> Do not store signing keys in the app.');
    expect(content).toContain('> [!KEY-POINT]\n> Compose works with existing views.');
    expect(content).not.toContain('**Note:**');
  });

  it("takes a bold label naming the kind at the start of any callout's body as its title, and keeps one that says more", async () => {
    const content = await markdownOf(
      '<div class="alert alert-warning"><p><strong>Warning:</strong> Back up the archive first.</p></div>' +
        '<div class="admonition note"><p><strong>Before you start,</strong> read the setup guide.</p></div>',
    );
    expect(content).toContain('> [!WARNING]\n> Back up the archive first.');
    expect(content).toContain('> [!NOTE]\n> **Before you start,** read the setup guide.');
  });

  it("leaves an aside whose class names no note's kind, a page's sidebar or a forum's quotation, to the extractors", async () => {
    const content = await markdownOf(
      '<aside class="sidebar related"><h3>Related</h3><ul><li><a href="/x">Another bridge story</a></li></ul></aside>' +
        '<aside class="quote no-group" data-username="rita"><div class="title">rita:</div><blockquote><p>Is the bridge open on Sundays?</p></blockquote></aside>',
    );
    expect(content).not.toContain('> [!');
    expect(content).not.toContain('Another bridge story');
  });
});

describe("extract: Bootstrap's alerts as callouts", () => {
  it('writes an alert as a callout of the kind its colour class gives (failing before: the kind was lost)', async () => {
    const content = await markdownOf(
      '<div class="alert alert-warning" role="alert"><p>Back up the archive before the upgrade.</p></div>',
    );
    expect(content).toContain('> [!WARNING]\n> Back up the archive before the upgrade.');
  });

  it('takes the kind from a title that names one, where the class gives only a colour', async () => {
    const content = await markdownOf(
      '<div class="alert alert-info"><h4 class="alert-heading">Note:</h4><p>The bridge closes at ten.</p></div>' +
        '<div class="alert alert-danger"><p class="alert-title">Data loss ahead</p><p>This deletes every row.</p></div>',
    );
    expect(content).toContain('> [!NOTE]\n> The bridge closes at ten.');
    expect(content).toContain('> [!DANGER] Data loss ahead\n> This deletes every row.');
    expect(content).not.toContain('Note:');
  });

  it('leaves a box whose classes give no kind as it was written, without a title the page never shows', async () => {
    const content = await markdownOf(
      '<div class="alert alert-primary"><p>The bridge closes at ten.</p></div>',
    );
    expect(content).toContain('The bridge closes at ten.');
    expect(content).not.toContain('> [!');
    expect(content).not.toContain('Primary');
  });
});

describe('extract: a callout said twice', () => {
  it('keeps both, as the page does', async () => {
    const warning =
      '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Open files in binary mode before you upload them to the bridge archive.</p></div>';
    const content = await markdownOf(
      `${warning}<p>Uploading works as shown above for every file type.</p>${warning}`,
    );
    expect(content.match(/> \[!WARNING\]/g)).toHaveLength(2);
  });
});

describe('extract: callouts written as blockquotes', () => {
  it('reads the kind of a blockquote admonition and writes its list with one space after the marker', async () => {
    const content = await markdownOf(
      '<blockquote class="admonition admonition-tip not-prose"><div class="admonition-header"><span class="admonition-icon"><svg></svg></span><span class="admonition-title">Tip</span></div>' +
        '<div class="admonition-content"><p>Reference containers by name.</p><ul><li>The web service answers on port 80 of the bridge network.</li><li>The database keeps every reading of the deck sensors.</li></ul></div></blockquote>',
    );
    expect(content).toContain(
      '> [!TIP]\n> Reference containers by name.\n>\n> - The web service answers on port 80 of the bridge network.\n> - The database keeps every reading',
    );
  });
});

describe('extract: a callout title is page text', () => {
  it('cannot carry a link of its own', async () => {
    const { content } = await extract({
      body: `<!doctype html><html><head><title>Guide</title></head><body><article><h1>Guide</h1><p>${'Words about the release and what changed in it for every user of the tool. '.repeat(8)}</p><div class="admonition warning"><p class="admonition-title">Read [this](javascript:alert(1)) first</p><p>${'The old flag is gone and scripts that pass it now fail at start. '.repeat(3)}</p></div><p>${'More words about upgrading and the steps that follow it for each platform. '.repeat(8)}</p></article></body></html>`,
      url: 'https://example.org/docs/release.html',
      contentType: 'text/html',
    });
    expect(content).toContain('> [!WARNING]');
    expect(content).not.toMatch(/\]\(javascript:/i);
  });
});
