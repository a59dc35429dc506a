/**
 * A video, a recording or a post that a page embeds from a known player is part of what the page
 * says ("listen to the interview below"), but an `<iframe>` has no text, and the DOM stages drop
 * every frame. Before they do, each frame of a known player becomes a paragraph holding one link to
 * the media's own page ("[YouTube video](https://www.youtube.com/watch?v=…)"), so the answer says
 * what is there and where to find it. Frames of other origins (advertising, forms, maps) still go.
 */

/** How a player's frame address leads to the media's own page, and what the link says. */
interface Player {
  host: RegExp;
  /** The media's page for a frame at `url`, or undefined when the address names none. */
  page: (url: URL) => string | undefined;
  label: string;
}

const id = (value: string | undefined) =>
  value !== undefined && /^[\w-]{1,64}$/.test(value) ? value : undefined;

const PLAYERS: readonly Player[] = [
  {
    host: /^(?:www\.)?youtube(?:-nocookie)?\.com$/,
    page: (url) => {
      const video = id(/^\/embed\/([^/]+)$/.exec(url.pathname)?.[1]);
      return video === undefined || video === 'videoseries'
        ? undefined
        : `https://www.youtube.com/watch?v=${video}`;
    },
    label: 'YouTube video',
  },
  {
    host: /^player\.vimeo\.com$/,
    page: (url) => {
      const video = id(/^\/video\/(\d+)$/.exec(url.pathname)?.[1]);
      return video === undefined ? undefined : `https://vimeo.com/${video}`;
    },
    label: 'Vimeo video',
  },
  {
    host: /^(?:www\.)?dailymotion\.com$/,
    page: (url) => {
      const video = id(/^\/embed\/video\/([^/]+)$/.exec(url.pathname)?.[1]);
      return video === undefined ? undefined : `https://www.dailymotion.com/video/${video}`;
    },
    label: 'Dailymotion video',
  },
  {
    host: /^open\.spotify\.com$/,
    page: (url) => {
      const match = /^\/embed\/(episode|show|track|album|playlist)\/([^/]+)$/.exec(url.pathname);
      const item = id(match?.[2]);
      return match === null || item === undefined
        ? undefined
        : `https://open.spotify.com/${match[1]}/${item}`;
    },
    label: 'Spotify recording',
  },
  {
    host: /^w\.soundcloud\.com$/,
    page: (url) => {
      const target = url.searchParams.get('url');
      if (target === null) return undefined;
      try {
        const track = new URL(target);
        return /^(?:api\.)?soundcloud\.com$/.test(track.hostname) && track.protocol === 'https:'
          ? track.href
          : undefined;
      } catch {
        return undefined;
      }
    },
    label: 'SoundCloud recording',
  },
  {
    host: /^platform\.twitter\.com$/,
    page: (url) => {
      const post = url.searchParams.get('id') ?? undefined;
      return /^\/embed\//.test(url.pathname) && post !== undefined && /^\d{1,25}$/.test(post)
        ? `https://x.com/i/status/${post}`
        : undefined;
    },
    label: 'Post on X',
  },
  {
    // A frame of the post's own page (`x.com/<account>/status/<id>`), as some pages embed one.
    host: /^(?:www\.|mobile\.)?(?:x|twitter)\.com$/,
    page: (url) => {
      const match = /^\/(\w{1,15})\/status(?:es)?\/(\d{1,25})\/?$/.exec(url.pathname);
      return match === null ? undefined : `https://x.com/${match[1]}/status/${match[2]}`;
    },
    label: 'Post on X',
  },
];

/** A player's name before a frame's title ("Spotify Embed: …", "YouTube video player - …"). */
const PLAYER_PREFIX =
  /^(?:youtube|vimeo|spotify|soundcloud|dailymotion)(?:\s+(?:video|embed|player|widget))*\s*[:|–—-]\s*/i;

/** A frame title that only says what the frame is ("YouTube video player", "Embedded video"). */
const GENERIC_TITLE =
  /^(?:(?:youtube|vimeo|spotify|soundcloud|dailymotion|embedded|video|audio|media)\s*)*(?:video|embed|player|widget|content)?(?:\s+player)?$/i;

/** The longest frame title used as the link's text; a longer one is a description, not a name. */
const MAX_TITLE_CHARS = 120;

/**
 * Replaces every frame of a known player (see {@link PLAYERS}) in `document` with a paragraph
 * linking to the media's page, titled by the frame's `title` when it has a short one.
 */
export function linkMediaEmbeds(document: Document): void {
  for (const frame of Array.from(document.querySelectorAll('iframe[src], iframe[data-src]'))) {
    const source = frame.getAttribute('src') || frame.getAttribute('data-src') || '';
    let url: URL;
    try {
      // A player's address is absolute or protocol-relative; a relative one is the site's own frame.
      url = new URL(source, 'https://page.invalid/');
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
    const player = PLAYERS.find((candidate) => candidate.host.test(url.hostname));
    const page = player?.page(url);
    if (player === undefined || page === undefined) continue;
    const title = (frame.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim().replace(PLAYER_PREFIX, '');
    const link = document.createElement('a');
    link.setAttribute('href', page);
    link.textContent =
      title.length <= MAX_TITLE_CHARS && !GENERIC_TITLE.test(title)
        ? `${player.label}: ${title}`
        : player.label;
    const paragraph = document.createElement('p');
    paragraph.appendChild(link);
    frame.replaceWith(paragraph);
  }
}
