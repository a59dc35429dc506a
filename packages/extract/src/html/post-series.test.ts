import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { parseHtmlDocument } from './parse-html-document.js';
import { findSeriesRoot } from './post-series.js';

const encoder = new TextEncoder();

/** Sentences of distinct words, so that no extractor folds them as repeats. */
function prose(count: number, prefix: string): string {
  const words = Array.from({ length: count }, (_, index) => `${prefix}${index}`);
  const sentences: string[] = [];
  for (let index = 0; index < words.length; index += 12)
    sentences.push(`${words.slice(index, index + 12).join(' ')}.`);
  return sentences.join(' ');
}

async function extractPage(html: string, url: string) {
  return extract({ body: encoder.encode(html), url, contentType: 'text/html', format: 'markdown' });
}

const chrome =
  '<header><nav><a href="/">Home</a> <a href="/questions">Questions</a> <a href="/tags">Tags</a></nav></header>';

describe('extract: a question and every answer', () => {
  it('keeps the answers of a Q&A page beside its question', async () => {
    const answer = (id: number, text: string) =>
      `<div class="answer js-answer" id="answer-${id}"><div class="votes">${id}</div><div class="answercell"><div class="post-text"><p>${text}</p></div><div class="user-info">answered by user${id}</div></div></div>`;
    const page =
      '<!doctype html><html><head><title>Why does the gauge drift?</title>' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"QAPage","mainEntity":{"@type":"Question","name":"Why does the gauge drift?"}}</script>' +
      `</head><body>${chrome}<div id="content"><div id="mainbar">` +
      `<div id="question-header"><h1>Why does the gauge drift?</h1></div>` +
      `<div id="question" class="question"><div class="post-text"><p>Our tide gauge reads high every spring. ${prose(60, 'question')}</p></div></div>` +
      `<div id="answers"><h2>3 Answers</h2>` +
      answer(1, `Silt settles in the stilling well. ${prose(40, 'first')}`) +
      answer(2, `The datum moved after the survey. ${prose(40, 'second')}`) +
      answer(3, `Temperature bends the float wire. ${prose(40, 'third')}`) +
      '</div></div></div><footer><p>Site design and logo are the property of the site.</p></footer></body></html>';
    const document = await extractPage(page, 'https://qa.example.org/questions/77/why-does-the-gauge-drift');
    expect(document.content).toContain('Our tide gauge reads high every spring.');
    expect(document.content).toContain('Silt settles in the stilling well.');
    expect(document.content).toContain('The datum moved after the survey.');
    expect(document.content).toContain('Temperature bends the float wire.');
  });

  it('keeps a short question above long answers that hold most of what Defuddle picked', async () => {
    // Each answer ends in a "Comments" label and its list: Defuddle reads the first label as the
    // end of the article and keeps the question and the first answer only.
    const answer = (id: number, text: string) =>
      `<div class="answer js-answer" id="answer-${id}"><div class="votes">${id * 7}</div><div class="answercell"><div class="s-prose js-post-body"><p>${text}</p></div><div class="user-info">answered by user${id}</div></div><div class="answer-notes"><div class="label">Comments</div><ul class="notes"><li>Thanks, that helped with the logger ${id}.</li></ul></div></div>`;
    const page =
      '<!doctype html><html><head><title>Why is a bare except a bad practice?</title>' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"QAPage","mainEntity":{"@type":"Question","name":"Why is a bare except a bad practice?"}}</script>' +
      `</head><body>${chrome}<div id="content"><div id="mainbar" role="main" aria-label="question and answers">` +
      '<div id="question-header"><h1>Why is a bare except a bad practice?</h1></div>' +
      '<div id="question" class="question"><div class="postcell"><div class="s-prose js-post-body"><p>I often see comments saying a bare except is discouraged, and I would like to know why it is bad. Sometimes I do not care what the errors are and want the loop to go on with the next file, so passing looks like the simplest way to keep the batch job running overnight.</p></div></div></div>' +
      '<div id="answers"><h2>4 Answers</h2>' +
      answer(1, `It hides the errors you did not expect. ${prose(300, 'first')}`) +
      answer(2, `It swallows the interrupt a user sends. ${prose(150, 'second')}`) +
      answer(3, `Name the exceptions you can recover from. ${prose(140, 'third')}`) +
      answer(4, `Log what you catch before passing on. ${prose(130, 'fourth')}`) +
      '</div></div></div><footer><p>Site design and logo are the property of the site.</p></footer></body></html>';
    const document = await extractPage(page, 'https://qa.example.org/questions/91/why-is-a-bare-except-bad');
    expect(document.content).toContain('I often see comments saying a bare except is discouraged');
    for (const opening of [
      'It hides the errors',
      'It swallows the interrupt',
      'Name the exceptions',
      'Log what you catch',
    ])
      expect(document.content).toContain(opening);
  });

  it('keeps the posts of a thread that sits in a comment-named section', async () => {
    const post = (id: number, author: string, text: string) =>
      `<article id="elComment_${id}" class="cPost ipsComment"><aside class="cAuthorPane"><h3>${author}</h3></aside><div class="ipsComment_content"><p>${text}</p></div></article>`;
    const page =
      '<!doctype html><html><head><title>Harbour dues for 2025</title>' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Harbour dues for 2025"}</script>' +
      `</head><body>${chrome}<main><h1>Harbour dues for 2025</h1><div id="comments"><div id="elPostFeed"><form>` +
      post(11, 'marta', `The dues rise by a tenth in April. ${prose(40, 'opening')}`) +
      post(12, 'ines', `Moorings on the east wall stay the same. ${prose(40, 'reply')}`) +
      post(13, 'olu', `Winter berths are billed by the month now. ${prose(40, 'later')}`) +
      '</form></div></div></main></body></html>';
    const document = await extractPage(page, 'https://boards.example.org/topic/311-harbour-dues-for-2025/');
    expect(document.content).toContain('The dues rise by a tenth in April.');
    expect(document.content).toContain('Moorings on the east wall stay the same.');
    expect(document.content).toContain('Winter berths are billed by the month now.');
  });
});

describe('extract: every post of a series', () => {
  it('reads every post when Defuddle would keep the best-scoring one', async () => {
    const posts = [
      `<h1>Tide gauge drift</h1><div class="post"><span class="author">marta</span><p>Our gauge reads high every spring. ${prose(30, 'question')}</p></div>`,
      `<div class="post"><span class="author">ines</span><p>Check the stilling well for silt. ${prose(30, 'firstanswer')}</p></div>`,
      `<div class="post"><span class="author">olu</span><p>Recalibrate against the benchmark. ${prose(30, 'secondanswer')}</p></div>`,
    ].join('');
    const page = `<!doctype html><html><head><title>Tide gauge drift</title></head><body>${chrome}<div id="main-outlet">${posts}</div></body></html>`;
    const document = await extractPage(page, 'https://forum.example.org/t/tide-gauge-drift/4121');
    expect(document.content).toContain('Our gauge reads high every spring.');
    expect(document.content).toContain('Check the stilling well for silt.');
    expect(document.content).toContain('Recalibrate against the benchmark.');
    // A page that carries the attribute marking the root cannot choose the root with it.
    const decoy = page.replace(
      '<body>',
      '<body><div data-mono-agent-series-root=""><p>Buy cheap gauges today at our partner shop.</p></div>',
    );
    const decoyed = await extractPage(decoy, 'https://forum.example.org/t/tide-gauge-drift/4121');
    expect(decoyed.content).toContain('Recalibrate against the benchmark.');
    expect(decoyed.content).not.toContain('partner shop');
  });

  it('reads the posts of a declared thread that Defuddle removes as a comment section', async () => {
    const post = (id: number, text: string) =>
      `<div id="post_${id}" class="message"><div class="message-body"><p>${text}</p></div></div>`;
    const page =
      '<!doctype html><html><head><title>Harbour dues for 2025</title>' +
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Harbour dues for 2025"}</script>' +
      `</head><body>${chrome}<main><h1>Harbour dues for 2025</h1><div id="comments">` +
      post(1, `The dues rise by a tenth in April. ${prose(40, 'opening')}`) +
      post(2, `Moorings on the east wall stay the same. ${prose(40, 'reply')}`) +
      post(3, `Winter berths are billed by the month now. ${prose(40, 'later')}`) +
      '</div></main></body></html>';
    const document = await extractPage(page, 'https://boards.example.org/threads/harbour-dues.311/');
    expect(document.content).toContain('The dues rise by a tenth in April.');
    expect(document.content).toContain('Winter berths are billed by the month now.');
  });
});

describe('findSeriesRoot', () => {
  it('finds the thread around one picked post, and nothing around a whole article', async () => {
    const posts = ['alpha', 'beta', 'gamma']
      .map((prefix) => `<div class="post"><p>${prose(30, prefix)}</p></div>`)
      .join('');
    const document = await parseHtmlDocument(
      `<html><body><div id="thread">${posts}</div><div id="side"><p>${prose(10, 'side')}</p></div></body></html>`,
    );
    expect(findSeriesRoot(document.body, prose(30, 'alpha'))?.getAttribute('id')).toBe('thread');
    // The picked text is the whole series already.
    expect(
      findSeriesRoot(document.body, `${prose(30, 'alpha')} ${prose(30, 'beta')} ${prose(30, 'gamma')}`),
    ).toBe(undefined);
    // The picked text holds two of the three posts: most of the series, kept as it is.
    expect(findSeriesRoot(document.body, `${prose(30, 'alpha')} ${prose(30, 'beta')}`)).toBe(undefined);
    // The picked text lies outside every series.
    expect(findSeriesRoot(document.body, prose(10, 'side'))).toBe(undefined);
  });

  it('rises from the answers to the question above them when they hold the picked text but not its opening', async () => {
    const answers = ['alpha', 'beta', 'gamma']
      .map((prefix) => `<div class="answer"><p>${prose(60, prefix)}</p></div>`)
      .join('');
    const document = await parseHtmlDocument(
      `<html><body><div id="mainbar"><div class="question"><p>${prose(12, 'ask')}</p></div><div id="answers">${answers}</div></div><div id="side"><p>${prose(10, 'side')}</p></div></body></html>`,
    );
    // The question's twelve words and one answer: the answers hold 5/6 of it, not its opening.
    const picked = `${prose(12, 'ask')} ${prose(60, 'alpha')}`;
    expect(findSeriesRoot(document.body, picked, true)?.getAttribute('id')).toBe('mainbar');
    // Picked from the answers alone, the root stays theirs.
    expect(findSeriesRoot(document.body, prose(60, 'beta'), true)?.getAttribute('id')).toBe('answers');
  });

  it('finds the thread when the picked text holds most of its words but leaves whole posts out', async () => {
    const posts = [
      ['long', 120],
      ['short', 30],
      ['brief', 25],
    ]
      .map(([prefix, count]) => `<div class="post"><p>${prose(Number(count), String(prefix))}</p></div>`)
      .join('');
    const document = await parseHtmlDocument(`<html><body><div id="thread">${posts}</div></body></html>`);
    // The first post is 120 of the series' 175 words: most of it, but two posts are missing.
    expect(findSeriesRoot(document.body, prose(120, 'long'), true)?.getAttribute('id')).toBe('thread');
    // Off a thread, a picked text holding most of a series is left as it is.
    expect(findSeriesRoot(document.body, prose(120, 'long'))).toBe(undefined);
    // Every post there: nothing is missing.
    const whole = `${prose(120, 'long')} ${prose(30, 'short')} ${prose(25, 'brief')}`;
    expect(findSeriesRoot(document.body, whole, true)).toBe(undefined);
    // Only the brief post left out: 25 of 175 words, under a quarter of the thread.
    expect(findSeriesRoot(document.body, `${prose(120, 'long')} ${prose(30, 'short')}`, true)).toBe(
      undefined,
    );
  });

  it('on a thread, takes the posts for the series, not the paragraphs of the post the extractor picked', async () => {
    const opening = [1, 2, 3, 4].map((index) => `<p>${prose(20, `open${index}x`)}</p>`).join('');
    const replies = ['alpha', 'beta', 'gamma']
      .map((prefix) => `<article class="cPost"><div class="body"><p>${prose(40, prefix)}</p></div></article>`)
      .join('');
    const document = await parseHtmlDocument(
      `<html><body><div id="thread"><article class="cPost"><div id="first" class="body">${opening}</div></article>${replies}</div></body></html>`,
    );
    // Half of the first post's paragraphs: a part of the paragraphs' series, and of the thread.
    const picked = [1, 2].map((index) => prose(20, `open${index}x`)).join(' ');
    expect(findSeriesRoot(document.body, picked, true)?.getAttribute('id')).toBe('thread');
    // Off a thread, paragraphs are a series as any other siblings are.
    expect(findSeriesRoot(document.body, picked)?.getAttribute('id')).toBe('first');
  });

  it('leaves an article page with a comment section alone', async () => {
    const comments = ['one', 'two', 'three', 'four']
      .map((prefix) => `<li class="comment"><p>${prose(40, prefix)}</p></li>`)
      .join('');
    const document = await parseHtmlDocument(
      `<html><body><article><h1>Spring tides</h1><p>${prose(90, 'story')}</p></article><ol class="comments">${comments}</ol></body></html>`,
    );
    expect(findSeriesRoot(document.body, prose(90, 'story'))).toBe(undefined);
  });

  it('does not take the list of a dialog for a thread whose posts were all dropped', async () => {
    const purposes = Array.from(
      { length: 6 },
      (_, index) => `<section class="purpose"><p>${prose(40, `cookie${index}x`)}</p></section>`,
    ).join('');
    const posts = ['alpha', 'beta']
      .map((prefix) => `<div class="post"><p>${prose(20, prefix)}</p></div>`)
      .join('');
    const document = await parseHtmlDocument(
      `<html><body><div id="consent" role="dialog">${purposes}</div><div id="thread">${posts}</div></body></html>`,
    );
    expect(findSeriesRoot(document.body, '', true)?.getAttribute('id')).toBe('thread');
  });
});
