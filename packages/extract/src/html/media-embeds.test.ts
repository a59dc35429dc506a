import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';
import { linkMediaEmbeds } from './media-embeds.js';

const linked = (frame: string) => {
  const { document } = parseHTML(`<!doctype html><html><body><div id="story">${frame}</div></body></html>`);
  linkMediaEmbeds(document as unknown as Document);
  return document.getElementById('story')?.innerHTML ?? '';
};

describe("linkMediaEmbeds: a known player's frame becomes a link to its media", () => {
  it("links each player's frame to the media's own page", () => {
    const cases: [string, string, string][] = [
      [
        'https://www.youtube.com/embed/b_PXuEPxN50?rel=0',
        'https://www.youtube.com/watch?v=b_PXuEPxN50',
        'YouTube video',
      ],
      [
        '//www.youtube-nocookie.com/embed/b_PXuEPxN50',
        'https://www.youtube.com/watch?v=b_PXuEPxN50',
        'YouTube video',
      ],
      ['https://player.vimeo.com/video/45725193?h=a290f71a57', 'https://vimeo.com/45725193', 'Vimeo video'],
      [
        'https://www.dailymotion.com/embed/video/x8abc12',
        'https://www.dailymotion.com/video/x8abc12',
        'Dailymotion video',
      ],
      [
        'https://open.spotify.com/embed/episode/4rOoJ6Egrf8K2IrywzwOMk',
        'https://open.spotify.com/episode/4rOoJ6Egrf8K2IrywzwOMk',
        'Spotify recording',
      ],
      [
        'https://w.soundcloud.com/player/?url=https%3A//api.soundcloud.com/tracks/293&amp;color=ff5500',
        'https://api.soundcloud.com/tracks/293',
        'SoundCloud recording',
      ],
      [
        'https://platform.twitter.com/embed/Tweet.html?id=1675626836821409792',
        'https://x.com/i/status/1675626836821409792',
        'Post on X',
      ],
      [
        'https://x.com/kepano/status/1675626836821409792',
        'https://x.com/kepano/status/1675626836821409792',
        'Post on X',
      ],
      ['https://twitter.com/jack/status/20/', 'https://x.com/jack/status/20', 'Post on X'],
    ];
    for (const [source, page, label] of cases) {
      expect(linked(`<iframe src="${source}"></iframe>`), source).toBe(
        `<p><a href="${page}">${label}</a></p>`,
      );
    }
  });

  it("names the media by the frame's short title, and reads a lazy frame's data-src", () => {
    expect(
      linked('<iframe title="Harbour at dawn" data-src="https://player.vimeo.com/video/1"></iframe>'),
    ).toBe('<p><a href="https://vimeo.com/1">Vimeo video: Harbour at dawn</a></p>');
    // The player's name before a title goes; a title that only says what the frame is adds nothing,
    // and one too long to be a name is left out.
    expect(
      linked(
        '<iframe title="Spotify Embed: Tide talk" src="https://open.spotify.com/embed/show/abc"></iframe>',
      ),
    ).toBe('<p><a href="https://open.spotify.com/show/abc">Spotify recording: Tide talk</a></p>');
    expect(
      linked('<iframe title="YouTube video player" src="https://www.youtube.com/embed/abc"></iframe>'),
    ).toBe('<p><a href="https://www.youtube.com/watch?v=abc">YouTube video</a></p>');
    expect(
      linked(`<iframe title="${'x'.repeat(121)}" src="https://www.youtube.com/embed/abc"></iframe>`),
    ).toBe('<p><a href="https://www.youtube.com/watch?v=abc">YouTube video</a></p>');
  });

  it('leaves other frames, and player addresses that name no media, as they are', () => {
    for (const frame of [
      '<iframe src="https://ads.example.net/slot/1"></iframe>',
      '<iframe src="/comments/frame"></iframe>',
      '<iframe src="https://www.youtube.com/embed/videoseries?list=PL1"></iframe>',
      '<iframe src="https://x.com/kepano"></iframe>',
      '<iframe src="https://x.com/i/flow/login"></iframe>',
      '<iframe src="https://www.youtube.com/embed/a%22onerror%3D/x"></iframe>',
      '<iframe src="https://w.soundcloud.com/player/?url=javascript:alert(1)"></iframe>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '<iframe></iframe>',
    ]) {
      expect(linked(frame), frame).toBe(frame);
    }
  });
});

describe('extractHtml: a story with an embedded recording', () => {
  it('says where the recording is instead of leaving its introduction hanging (failing before: the frame was dropped)', async () => {
    const paragraph = (index: number) =>
      `<p>Paragraph ${index} tells how the harbour choir recorded its winter concert in the old fish market, with the doors open to the quay.</p>`;
    const html =
      '<!doctype html><html><head><title>The concert</title><meta property="og:type" content="article"></head><body><article>' +
      `<h1>The concert</h1>${Array.from({ length: 6 }, (_, index) => paragraph(index)).join('')}` +
      '<p>Listen to the whole concert below.</p><iframe src="https://www.youtube.com/embed/Xy_12-ab" title="Winter concert 2025"></iframe>' +
      '<iframe src="https://ads.example.net/slot/1"></iframe></article></body></html>';
    const article = await extractHtml(html, 'https://news.example.org/concert');
    expect(article.markdown).toContain(
      '[YouTube video: Winter concert 2025](https://www.youtube.com/watch?v=Xy_12-ab)',
    );
    expect(article.markdown).not.toContain('ads.example.net');
  });
});
