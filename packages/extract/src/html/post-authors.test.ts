import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { MAX_POST_ITEMS, MIN_SIGNED_POSTS, signPosts } from './post-authors.js';

const replies = [
  'Check that the tuya-local integration is up to date; the old release calls the event loop from a thread.',
  'Disabling the custom integration and restarting brought every device back for me on the same release.',
  'The integration’s maintainer shipped a fix last night, so updating through HACS is enough now.',
];
const question =
  'After the update the dashboard keeps saying that Home Assistant is starting, and half of my devices stay unavailable until I roll back.';

/** A Discourse topic as its crawler view serves it: the first post in the topic's item, replies as comments. */
const discourse = `<!doctype html><html><head><title>Stuck on "Home Assistant is starting"</title></head><body>
<div id="main-outlet"><h1>Stuck on "Home Assistant is starting"</h1>
<div itemscope itemtype="http://schema.org/DiscussionForumPosting">
  <meta itemprop="headline" content="Stuck on Home Assistant is starting">
  <meta itemprop="datePublished" content="2024-05-03T08:45:00Z">
  <div id="post_1" class="topic-body crawler-post">
    <div class="crawler-post-meta">
      <span class="creator" itemprop="author" itemscope itemtype="http://schema.org/Person">
        <a itemprop="url" href="/u/raoul"><span itemprop="name">raoul</span></a>
      </span>
      <span class="crawler-post-infos"><time datetime="2024-05-03T08:45:00Z" class="post-time">May 3, 2024, 8:45am</time>
      <span itemprop="position">1</span></span>
    </div>
    <div class="post" itemprop="text"><p>${question}</p></div>
    <span class="post-likes">2 Likes</span>
  </div>
  ${replies
    .map(
      (
        reply,
        index,
      ) => `<div id="post_${index + 2}" itemprop="comment" itemscope itemtype="http://schema.org/Comment" class="topic-body crawler-post">
    <div class="crawler-post-meta">
      <span class="creator" itemprop="author" itemscope itemtype="http://schema.org/Person">
        <a itemprop="url" href="/u/helper${index}"><span itemprop="name">helper${index}</span></a>
      </span>
      <span class="crawler-post-infos"><time itemprop="datePublished" datetime="2024-05-0${index + 4}T12:16:00Z" class="post-time">May ${index + 4}, 2024, 12:16pm</time>
      <span itemprop="position">${index + 2}</span></span>
    </div>
    <div class="post" itemprop="text"><p>${reply}</p></div>
  </div>`,
    )
    .join('\n')}
</div></div></body></html>`;

/** A XenForo thread: each post's author card (name, rank, join date, counts) in a column of its own. */
const xenforo = `<!doctype html><html><head><title>Which card should I buy?</title></head><body>
<div class="p-body"><h1 class="p-title-value">Which card should I buy?</h1>
${[question, ...replies]
  .map(
    (
      text,
      index,
    ) => `<article class="message message--post" data-author="member${index}" itemscope itemtype="https://schema.org/Comment">
  <div class="message-cell message-cell--user">
    <section class="message-user" itemprop="author" itemscope itemtype="https://schema.org/Person">
      <h4 class="message-name"><a href="/members/${index}/" class="username" itemprop="name">member${index}</a></h4>
      <h5 class="userTitle message-userTitle" itemprop="jobTitle">Distinguished</h5>
      <div class="message-userExtras"><dl class="pairs"><dt>Joined</dt><dd>Jun 15, 2020</dd></dl><dl class="pairs"><dt>Messages</dt><dd>2,75${index}</dd></dl>${index === 2 ? `<dl class="pairs"><dt>Location</dt><dd>${'On the long road between the harbour and the hills '.repeat(5)}</dd></dl>` : ''}</div>
    </section>
  </div>
  <div class="message-cell message-cell--main">
    <header class="message-attribution"><ul class="listInline"><li><a href="/posts/${index}/"><time class="u-dt" datetime="2024-11-0${index + 1}T10:00:00+0000" itemprop="datePublished">Nov ${index + 1}, 2024</time></a></li></ul><ul class="message-attribution-opposite"><li><a href="/posts/${index}/">#${index + 1}</a></li></ul></header>
    <div class="message-content"><div itemprop="text"><div class="bbWrapper">${text}</div></div></div>
  </div>
</article>`,
  )
  .join('\n')}
</div></body></html>`;

describe('extractHtml: who wrote each post of a thread', () => {
  it('heads each post of a Discourse topic with its author and the date the page shows', async () => {
    const article = await extractHtml(discourse, 'https://community.example/t/stuck-on-starting/724779');
    expect(article.markdown).toContain(`**raoul** · May 3, 2024, 8:45am\n\n${question}`);
    for (const [index, reply] of replies.entries()) {
      expect(article.markdown).toContain(`**helper${index}** · May ${index + 4}, 2024, 12:16pm\n\n${reply}`);
    }
    // Each name and date once: the card and the date it came from are gone.
    expect(article.markdown.match(/raoul/g)).toHaveLength(1);
    expect(article.markdown.match(/May 3, 2024/g)).toHaveLength(1);
  });

  it('writes a XenForo post’s author once, without the rank and counts of the card or the post’s number', async () => {
    const article = await extractHtml(xenforo, 'https://forums.example/threads/which-card.3859106/');
    expect(article.markdown).toContain(`**member0** · Nov 1, 2024\n\n${question}`);
    expect(article.markdown).toContain(`**member3** · Nov 4, 2024\n\n${replies[2]}`);
    expect(article.markdown.match(/member1\b/g)).toHaveLength(1);
    expect(article.text).not.toContain('Distinguished');
    expect(article.text).not.toContain('Jun 15, 2020');
    // The one long card (a long location) goes with the others, and the posts' numbers with their dates.
    expect(article.text).not.toContain('long road');
    expect(article.text).not.toMatch(/#\d/);
  });
});

describe('signPosts', () => {
  const parse = (body: string) => parseHTML(`<!doctype html><html><body>${body}</body></html>`).document;
  const post = (name: string, text: string, extra = '') =>
    `<div itemscope itemtype="https://schema.org/Comment"><span itemprop="author">${name}</span>${extra}<div itemprop="text"><p>${text}</p></div></div>`;

  it('signs nothing on a page with fewer than two signed posts: a story’s author is its byline', () => {
    const document = parse(post('Jane Doe', 'One comment under a story.'));
    expect(MIN_SIGNED_POSTS).toBe(2);
    expect(signPosts(document)).toBe(0);
    expect(document.body.textContent).toBe('Jane DoeOne comment under a story.');
  });

  it('falls back on the day of a machine-readable date when the page shows none', () => {
    const document = parse(
      [1, 2]
        .map((index) =>
          post(
            `user${index}`,
            `Post ${index}.`,
            `<meta itemprop="datePublished" content="2024-11-2${index}T15:50:23.066Z">`,
          ),
        )
        .join(''),
    );
    expect(signPosts(document)).toBe(2);
    expect(document.querySelector('address')?.textContent).toBe('user1 · 2024-11-21');
  });

  it('leaves a post quoted inside another post’s text, and the remarks under a Q&A site’s answers', () => {
    const quoted = post('quoted', 'What the earlier post said.');
    const document = parse(
      `${post('first', `A reply that quotes: ${quoted}`)}${post('second', 'Another reply.')}
      <div itemscope itemtype="https://schema.org/Answer"><div itemprop="author">answerer</div><div itemprop="text"><p>An answer.</p></div>
        <ul><li itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="text">A remark.</span> – <span itemprop="author">remarker</span></li></ul>
      </div>`,
    );
    expect(signPosts(document)).toBe(3);
    const lines = Array.from(document.querySelectorAll('address'), (line) => line.textContent);
    expect(lines).toEqual(['first', 'second', 'answerer']);
    expect(document.body.textContent).toContain('remarker');
  });

  it('keeps an author card too long to be only who wrote the post', () => {
    const card = `<div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">poster</span> ${'word '.repeat(45)}</div>`;
    const document = parse(
      [1, 2]
        .map(
          (index) =>
            `<div itemscope itemtype="https://schema.org/Comment">${card}<div itemprop="text"><p>Post ${index}.</p></div></div>`,
        )
        .join(''),
    );
    expect(signPosts(document)).toBe(2);
    expect(document.querySelectorAll('[itemprop="author"]')).toHaveLength(2);
  });

  it('signs the posts of a page at the bound of post items, and none past it', () => {
    const posts = (count: number) =>
      Array.from({ length: count }, (_, index) => post(`user${index}`, `Post ${index}.`)).join('');
    expect(signPosts(parse(posts(MAX_POST_ITEMS)))).toBe(MAX_POST_ITEMS);
    const past = parse(posts(MAX_POST_ITEMS + 1));
    expect(signPosts(past)).toBe(0);
    expect(past.querySelector('address')).toBe(null);
  });
});
