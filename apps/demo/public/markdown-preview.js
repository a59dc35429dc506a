// A small Markdown preview built from DOM nodes and textContent only: fetched text is never parsed as
// HTML, so nothing a page contains can run in the console. Links keep only http(s) targets.

const SAFE_SCHEMES = new Set(['http:', 'https:']);

/** Appends inline Markdown (links, code, emphasis) of `text` to `parent`. */
function appendInline(parent, text) {
  const pattern = /\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)|`([^`]+)`|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parent.append(text.slice(last, match.index));
    if (match[1] !== undefined) {
      let href;
      try {
        href = new URL(match[2]);
      } catch {
        href = undefined;
      }
      if (href !== undefined && SAFE_SCHEMES.has(href.protocol)) {
        const link = document.createElement('a');
        link.href = href.href;
        link.rel = 'noopener noreferrer nofollow';
        link.target = '_blank';
        link.textContent = match[1] || href.href;
        parent.append(link);
      } else {
        parent.append(match[1]);
      }
    } else if (match[3] !== undefined) {
      const code = document.createElement('code');
      code.textContent = match[3];
      parent.append(code);
    } else {
      const strong = document.createElement('strong');
      strong.textContent = match[4];
      parent.append(strong);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

/** Renders Markdown into `container` (replacing what it held). */
export function renderMarkdown(container, markdown) {
  container.replaceChildren();
  // The blocks still open to the lines that follow: a list, a paragraph, a code block, a table.
  const blocks = { container, list: undefined, paragraph: undefined, code: undefined, table: undefined };
  for (const line of markdown.split('\n')) {
    if (blocks.code !== undefined) continueCode(blocks, line);
    else if (!LINE_KINDS.some((render) => render(blocks, line))) continueParagraph(blocks, line);
  }
}

// A line starts a block of the first kind that takes it, in this order; any other line is text of a
// paragraph.
const LINE_KINDS = [openCode, blankLine, heading, tableRow, listItem, quote];

function closeBlocks(blocks) {
  blocks.list = undefined;
  blocks.paragraph = undefined;
  blocks.table = undefined;
}

// Inside a fenced block every line is code, up to the closing fence.
function continueCode(blocks, line) {
  if (/^\s*(```|~~~)/.test(line)) blocks.code = undefined;
  else blocks.code.textContent += `${line}\n`;
}

function openCode(blocks, line) {
  const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(line);
  if (!fence) return false;
  closeBlocks(blocks);
  const pre = document.createElement('pre');
  blocks.code = document.createElement('code');
  if (fence[2]) blocks.code.dataset.language = fence[2];
  pre.append(blocks.code);
  blocks.container.append(pre);
  return true;
}

function blankLine(blocks, line) {
  if (line.trim() !== '') return false;
  closeBlocks(blocks);
  return true;
}

function heading(blocks, line) {
  const match = /^(#{1,6})\s+(.*)$/.exec(line);
  if (!match) return false;
  closeBlocks(blocks);
  const element = document.createElement(`h${Math.min(match[1].length + 2, 6)}`);
  appendInline(element, match[2]);
  blocks.container.append(element);
  return true;
}

function tableRow(blocks, line) {
  if (!/^\s*\|.*\|\s*$/.test(line)) return false;
  // The row that separates a table's header from its body shows nothing.
  if (/^\s*\|[\s:|-]+\|\s*$/.test(line)) return true;
  if (blocks.table === undefined) {
    closeBlocks(blocks);
    blocks.table = document.createElement('table');
    blocks.container.append(blocks.table);
  }
  const row = blocks.table.insertRow();
  for (const cell of line.trim().slice(1, -1).split('|')) appendInline(row.insertCell(), cell.trim());
  return true;
}

function listItem(blocks, line) {
  const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
  if (!item) return false;
  blocks.paragraph = undefined;
  blocks.table = undefined;
  if (blocks.list === undefined) {
    blocks.list = document.createElement(/^\s*\d/.test(line) ? 'ol' : 'ul');
    blocks.container.append(blocks.list);
  }
  const entry = document.createElement('li');
  appendInline(entry, item[1]);
  blocks.list.append(entry);
  return true;
}

function quote(blocks, line) {
  const match = /^>\s?(.*)$/.exec(line);
  if (!match) return false;
  closeBlocks(blocks);
  const block = document.createElement('blockquote');
  appendInline(block, match[1]);
  blocks.container.append(block);
  return true;
}

function continueParagraph(blocks, line) {
  blocks.list = undefined;
  blocks.table = undefined;
  if (blocks.paragraph === undefined) {
    blocks.paragraph = document.createElement('p');
    blocks.container.append(blocks.paragraph);
  } else {
    blocks.paragraph.append(' ');
  }
  appendInline(blocks.paragraph, line);
}
