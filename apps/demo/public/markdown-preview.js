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
  const lines = markdown.split('\n');
  let list;
  let paragraph;
  let code;
  let table;
  const close = () => {
    list = undefined;
    paragraph = undefined;
    table = undefined;
  };
  for (const line of lines) {
    if (code !== undefined) {
      if (/^\s*(```|~~~)/.test(line)) code = undefined;
      else code.textContent += `${line}\n`;
      continue;
    }
    const fence = /^\s*(```|~~~)\s*([\w+-]*)/.exec(line);
    if (fence) {
      close();
      const pre = document.createElement('pre');
      code = document.createElement('code');
      if (fence[2]) code.dataset.language = fence[2];
      pre.append(code);
      container.append(pre);
      continue;
    }
    if (line.trim() === '') {
      close();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      close();
      const element = document.createElement(`h${Math.min(heading[1].length + 2, 6)}`);
      appendInline(element, heading[2]);
      container.append(element);
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      if (/^\s*\|[\s:|-]+\|\s*$/.test(line)) continue;
      if (table === undefined) {
        close();
        table = document.createElement('table');
        container.append(table);
      }
      const row = table.insertRow();
      for (const cell of line.trim().slice(1, -1).split('|')) appendInline(row.insertCell(), cell.trim());
      continue;
    }
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      paragraph = undefined;
      table = undefined;
      if (list === undefined) {
        list = document.createElement(/^\s*\d/.test(line) ? 'ol' : 'ul');
        container.append(list);
      }
      const entry = document.createElement('li');
      appendInline(entry, item[1]);
      list.append(entry);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      close();
      const block = document.createElement('blockquote');
      appendInline(block, quote[1]);
      container.append(block);
      continue;
    }
    list = undefined;
    table = undefined;
    if (paragraph === undefined) {
      paragraph = document.createElement('p');
      container.append(paragraph);
    } else {
      paragraph.append(' ');
    }
    appendInline(paragraph, line);
  }
}
