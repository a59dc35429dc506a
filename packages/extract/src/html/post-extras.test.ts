import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import {
  AUTHOR_DETAIL_MIN_LISTS,
  dropAuthorDetails,
  dropPostSignatures,
  dropReputationCounts,
} from './post-extras.js';

const answer = (index: number) =>
  `Answer ${index}: reseat the memory modules one at a time and boot with a single stick to find the faulty one.`;
const signature = 'My rig: Ryzen 7 5800X, 32 GB DDR4, RTX 3070, running Arch since 2015.';

const thread = (signatureMarkup: (text: string) => string) =>
  `<!doctype html><html><head><title>PC does not boot after RAM upgrade</title></head><body>
<main><h1>PC does not boot after RAM upgrade</h1>
${[1, 2, 3]
  .map(
    (index) =>
      `<div class="post"><p class="author">user${index}</p><div class="content"><p>${answer(index)}</p></div>${signatureMarkup(signature)}</div>`,
  )
  .join('\n')}
</main></body></html>`;

describe('extractHtml: signatures under a thread’s posts', () => {
  it('leaves out the signature phpBB, XenForo, vBulletin or Invision Community adds under each post', async () => {
    for (const markup of [
      (text: string) => `<div class="signature">${text}</div>`,
      (text: string) => `<aside class="message-signature"><div class="bbWrapper">${text}</div></aside>`,
      (text: string) => `<div class="signaturecontainer">${text}</div>`,
      (text: string) => `<div class="postsignature postmsg"><p>${text}</p></div>`,
      (text: string) =>
        `<div data-role="memberSignature" class="ipsEntry__signature ipsResponsive_hidePhone"><div class="ipsRichText">${text}</div></div>`,
      (text: string) => `<div data-role="memberSignature" class="ipsResponsive_hidePhone">${text}</div>`,
    ]) {
      const article = await extractHtml(thread(markup), 'https://forum.example/t/42');
      expect(article.text, markup('')).toContain('Answer 3');
      expect(article.text, markup('')).not.toContain('My rig');
    }
  });

  it('keeps what other pages name a signature: an author card, a method’s, a story’s sign-off', () => {
    const { document } = parseHTML(`<html><body>
<div class="post-signature owner"><a href="/u/1">Ann</a> answered Aug 5</div>
<div class="member-signature"><code>public int size()</code></div>
<div class="digital-signature-row">Sign documents online</div>
<div class="signature-pad-demo">Draw here</div>
<div class="method__signature"><code>size(): number</code></div>
<div class="signature">Gone</div></body></html>`);
    dropPostSignatures(document as unknown as Document);
    const text = document.body.textContent ?? '';
    for (const kept of ['Ann', 'public int size()', 'Sign documents online', 'Draw here', 'size(): number'])
      expect(text).toContain(kept);
    expect(text).not.toContain('Gone');
  });

  it('keeps a signature on a page declared an article', async () => {
    const html = thread((text) => `<div class="signature">${text}</div>`).replace(
      '</title>',
      '</title><meta property="og:type" content="article">',
    );
    const article = await extractHtml(html, 'https://blog.example/post');
    expect(article.text).toContain('Answer 1');
    expect(article.text).toContain('My rig');
  });
});

describe('dropReputationCounts', () => {
  it('leaves out an author’s reputation and badge counts, and keeps their name and the post’s date', () => {
    const { document } = parseHTML(`<html><body><div class="answer"><p>${answer(1)}</p>
<div class="post-signature"><div class="user-action-time">answered Aug 5, 2016 at 4:16</div>
<div class="user-details"><a href="/users/1/seb">Seb</a><div class="-flair"><span class="reputation-score">4,701</span><span>18 gold badges</span></div></div></div>
<div class="author-box"><a href="/u/2">Ann</a><span class="user-reputation">Reputation: 120</span></div></div></body></html>`);
    dropReputationCounts(document as unknown as Document);
    const text = document.body.textContent ?? '';
    for (const kept of ['Answer 1', 'answered Aug 5, 2016', 'Seb', 'Ann']) expect(text).toContain(kept);
    expect(text).not.toMatch(/4,701|gold badges|Reputation: 120/);
  });
});

describe('dropReputationCounts: ranks', () => {
  it('leaves out the rank under each author’s name, and keeps a story’s author title and a menu link', () => {
    const { document } = parseHTML(`<html><body>
<div class="message-userDetails"><h4 class="message-name"><a href="/members/ann.1/">Ann</a></h4><h5 class="userTitle message-userTitle">One Winged Slayer</h5><div class="userBanner message-userBanner"><strong>Member</strong></div></div>
<div class="postprofile"><span class="usertitle">Senior Member</span><dd class="profile-rank">Site Admin</dd></div>
<span class="user-title">Regular</span><div class="ipsEntry__group">Moderators</div><p>${answer(1)}</p>
<p class="author-title">Science correspondent</p><a class="usertitle-link" href="/titles">Titles</a><div class="entry__group-list">Groups we run</div></body></html>`);
    dropReputationCounts(document as unknown as Document);
    const text = document.body.textContent ?? '';
    for (const kept of ['Ann', 'Answer 1', 'Science correspondent', 'Titles', 'Groups we run'])
      expect(text).toContain(kept);
    expect(text).not.toMatch(/Slayer|Member|Site Admin|Regular|Moderators/);
  });
});

describe('dropReputationCounts: likes', () => {
  it('leaves out the count of likes under each post, and keeps a like count in words and a class that only holds the letters', () => {
    const { document } = parseHTML(`<html><body><div class="post"><p>${answer(1)}</p></div>
<span class="post-likes">6 Likes</span><span class="post-likes">1 Like</span><span class="like-count">12</span>
<p class="likes">Everyone likes a quiet fan.</p><span class="unlikely-hero">3</span></body></html>`);
    dropReputationCounts(document as unknown as Document);
    const text = document.body.textContent ?? '';
    for (const kept of ['Answer 1', 'Everyone likes a quiet fan.', '3']) expect(text).toContain(kept);
    expect(text).not.toMatch(/Likes?\b|12/);
  });
});

describe('extractHtml: reputation beside a thread’s posts', () => {
  it('reads a Q&A page’s answers without their authors’ badge counts', async () => {
    const post = (index: number) =>
      `<div class="answer"><div class="s-prose"><p>${answer(index)}</p></div><div class="-flair"><span class="reputation-score">${index},701</span> ${index} gold badges</div></div>`;
    const html = `<!doctype html><html><head><title>PC does not boot after RAM upgrade</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"QAPage"}</script>
</head><body><main><h1>PC does not boot after RAM upgrade</h1>${[1, 2, 3].map(post).join('')}</main></body></html>`;
    const article = await extractHtml(html, 'https://superuser.example/questions/1');
    expect(article.text).toContain('Answer 3');
    expect(article.text).not.toMatch(/gold badges|,701/);
    // The same page declaring nothing keeps them: only a thread's posts are read this way.
    const undeclared = await extractHtml(
      html.replace('"QAPage"', '"WebPage"'),
      'https://superuser.example/q/1',
    );
    expect(undeclared.text).toContain('gold badges');
  });
});

describe('dropAuthorDetails', () => {
  const details = (joined: string) =>
    `<div class="user"><a href="/u">Ann</a><dl class="pairs"><dt>Joined</dt><dd>${joined}</dd></dl><dl class="pairs"><dt>Location</dt><dd>Spain</dd></dl></div>`;
  const page = (posts: number) =>
    parseHTML(
      `<html><body>${Array.from({ length: posts }, (_, index) => `<article>${details(`Dec ${index + 1}, 2009`)}<p>${answer(index + 1)}</p></article>`).join('')}
<article><p>Terms used in the answers:</p><dl><dt>DIMM</dt><dd>a memory module</dd><dt>POST</dt><dd>the power-on self test</dd></dl></article></body></html>`,
    ).document as unknown as Document;

  it('leaves out the details printed beside every post, from the bound on', () => {
    const document = page(AUTHOR_DETAIL_MIN_LISTS);
    dropAuthorDetails(document);
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/Joined|Dec 1, 2009|Spain/);
    for (const kept of ['Ann', `Answer ${AUTHOR_DETAIL_MIN_LISTS}`, 'DIMM', 'power-on self test'])
      expect(text).toContain(kept);
  });

  it('reads the label of a term shown as an icon from its tooltip', () => {
    const iconTerm = (title: string) =>
      `<dt><span data-original-title="${title}"><i class="fa fa-user" aria-hidden="true"></i></span></dt>`;
    const { document } = parseHTML(
      `<html><body>${[1, 2, 3]
        .map(
          (index) =>
            `<article><a href="/u">Ann</a><dl>${iconTerm('Joined')}<dd>Oct 25, 2017</dd></dl><dl>${iconTerm('Messages')}<dd>13,539</dd></dl><p>${answer(index)}</p></article>`,
        )
        .join('')}<dl><dt><i class="fa fa-star"></i></dt><dd>Once, with no label</dd></dl></body></html>`,
    );
    dropAuthorDetails(document as unknown as Document);
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/Oct 25, 2017|13,539/);
    for (const kept of ['Ann', 'Answer 3', 'Once, with no label']) expect(text).toContain(kept);
  });

  it('leaves out details printed as lists of labelled items beside every post (failing before: only <dl> lists were read)', () => {
    // Invision Community: a list of counts ("563 posts", "3.4k posts") and one of custom fields.
    const stats = (posts: string, reputation: string, location: string) =>
      `<aside class="author-column"><a href="/u">Ann</a><ul><li><a href="/u/content"><span>${posts}</span> <span>posts</span></a></li><li><a href="/u/rep"><span>${reputation}</span> <span>Reputation</span></a></li></ul><ul><li><strong>Location:</strong><div>${location}</div></li></ul></aside>`;
    const { document } = parseHTML(
      `<html><body>${[
        ['563', '426', 'Lisbon, Portugal'],
        ['3.4k', '617', 'Texas, USA'],
        ['30.3k', '8.8k', 'Porto'],
      ]
        .map(
          ([p, r, l], index) =>
            `<article>${stats(p as string, r as string, l as string)}<p>${answer(index + 1)}</p></article>`,
        )
        .join('')}
<article><p>Steps that worked for me:</p><ul><li>Step 1: reseat the memory</li><li>Step 2: clear the CMOS</li></ul><ul><li>Step 1: reseat the card</li></ul><ul><li>Step 1: update the BIOS</li></ul>
<ul><li>Open the case</li><li>Reseat the memory</li></ul></article></body></html>`,
    );
    dropAuthorDetails(document as unknown as Document);
    const text = document.body.textContent ?? '';
    expect(text).not.toMatch(/563|3\.4k|Reputation|Location|Lisbon|Texas/);
    for (const kept of [
      'Ann',
      'Answer 3',
      'Step 1: reseat the memory',
      'Step 1: update the BIOS',
      'Open the case',
    ])
      expect(text).toContain(kept);
  });

  it('keeps them below the bound, where they may be a post’s own list', () => {
    const document = page(AUTHOR_DETAIL_MIN_LISTS - 1);
    dropAuthorDetails(document);
    expect(document.body.textContent).toContain('Joined');
  });
});
