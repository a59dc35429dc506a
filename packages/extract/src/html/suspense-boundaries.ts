/**
 * React's streaming server rendering sends a page in pieces. Where a part of the page is not ready,
 * the first piece holds a placeholder (`<template id="B:3">` inside `<!--$?-->`…`<!--/$-->`, often
 * with a skeleton as fallback); the part comes later in the same response, at the end of the body,
 * in a hidden `<div hidden id="S:3">`, with an inline script `$RC("B:3","S:3")` that moves it into
 * place. A page rendered in pieces (`$RS("S:4","P:4")`) works the same way for a segment. A browser
 * runs those scripts; this extractor runs none, so without the moves the parts sit hidden at the end
 * of the body, where every stage drops them as hidden, and the skeletons stand in their place:
 * code blocks of a documentation page, the specifications of a product page. A copy of such a page
 * saved without its scripts has the parts and placeholders alone; they are paired by number.
 */

const COMMENT_NODE = 8;

/** A call that completes a boundary (`$RR` when it also loads styles): its placeholder and its content. */
const COMPLETE_BOUNDARY = /\$R[CR]\(\s*"(B:[0-9a-z]+)"\s*,\s*"(S:[0-9a-z]+)"/gi;
/** A call that completes a segment: its content and its placeholder. */
const COMPLETE_SEGMENT = /\$RS\(\s*"(S:[0-9a-z]+)"\s*,\s*"(P:[0-9a-z]+)"/gi;

interface Move {
  /** The id of the element the content replaces. */
  placeholder: string;
  /** The id of the hidden element that holds the content. */
  content: string;
  /** A boundary's fallback, up to its closing comment, goes too; a segment has none. */
  boundary: boolean;
  /**
   * Whether the move may go without its fallback's closing comment (a copy saved without scripts
   * has usually lost its comments too): the fallback then stays beside the content.
   */
  withoutMarkers?: boolean;
}

/**
 * Moves the streamed parts of a React page into their placeholders, in the order the page's scripts
 * would (a part may hold the placeholder of a later one). A call whose placeholder or content is
 * missing is skipped, and so is a boundary whose closing comment cannot be found, leaving that part
 * of the page as it was. Must run before scripts are removed. Returns how many parts were moved.
 */
export function resolveStreamedParts(document: Document): number {
  const moves = streamedMoves(document);
  let moved = 0;
  for (const move of moves) {
    const placeholder = document.getElementById(move.placeholder);
    const content = document.getElementById(move.content);
    if (placeholder === null || content === null || placeholder.parentNode === null) continue;
    if (content.contains(placeholder)) continue;
    if (move.boundary && !removeFallback(placeholder) && move.withoutMarkers !== true) continue;
    placeholder.replaceWith(...Array.from(content.childNodes));
    content.remove();
    moved += 1;
  }
  return moved;
}

function streamedMoves(document: Document): Move[] {
  const moves = scriptedMoves(document);
  return moves.length > 0 ? moves : unscriptedMoves(document);
}

/**
 * The moves of a copy of a streamed page saved without its scripts, as archives and sanitizers keep
 * pages: each hidden `S:n` part into the placeholder React gives the same number, a segment's `P:n`
 * or else a boundary's `B:n` (React numbers a boundary and its first part alike when neither waits
 * on another, the common case). Parts are moved in the document's order.
 */
function unscriptedMoves(document: Document): Move[] {
  const moves: Move[] = [];
  for (const content of Array.from(document.querySelectorAll('div[hidden][id^="S:"]'))) {
    const number = content.id.slice(2);
    if (!/^[0-9a-z]+$/i.test(number)) continue;
    if (document.getElementById(`P:${number}`) !== null)
      moves.push({ placeholder: `P:${number}`, content: content.id, boundary: false });
    else if (document.getElementById(`B:${number}`) !== null)
      moves.push({ placeholder: `B:${number}`, content: content.id, boundary: true, withoutMarkers: true });
  }
  return moves;
}

function scriptedMoves(document: Document): Move[] {
  const moves: Move[] = [];
  for (const script of Array.from(document.querySelectorAll('script'))) {
    const code = script.textContent ?? '';
    if (!/\$R[CRS]\(/.test(code)) continue;
    // Calls of both kinds, in the order the script makes them.
    const calls: [number, Move][] = [];
    for (const match of code.matchAll(COMPLETE_BOUNDARY)) {
      calls.push([
        match.index ?? 0,
        { placeholder: match[1] ?? '', content: match[2] ?? '', boundary: true },
      ]);
    }
    for (const match of code.matchAll(COMPLETE_SEGMENT)) {
      calls.push([
        match.index ?? 0,
        { placeholder: match[2] ?? '', content: match[1] ?? '', boundary: false },
      ]);
    }
    calls.sort((a, b) => a[0] - b[0]);
    for (const [, move] of calls) moves.push(move);
  }
  return moves;
}

/**
 * Removes the nodes that follow a boundary's placeholder up to the comment that closes the boundary
 * (`<!--/$-->`), and that comment. Boundaries nested in the fallback are passed over whole. Returns
 * false, removing nothing, when the closing comment is not among the placeholder's next siblings.
 */
function removeFallback(placeholder: Element): boolean {
  const fallback: ChildNode[] = [];
  let depth = 0;
  for (let node = placeholder.nextSibling; node !== null; node = node.nextSibling) {
    fallback.push(node);
    if (node.nodeType !== COMMENT_NODE) continue;
    const marker = (node as Comment).data;
    if (marker === '$' || marker === '$?' || marker === '$!') depth += 1;
    else if (marker === '/$') {
      if (depth === 0) {
        for (const removed of fallback) removed.remove();
        return true;
      }
      depth -= 1;
    }
  }
  return false;
}
