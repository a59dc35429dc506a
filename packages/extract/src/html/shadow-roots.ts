// A page rendered on its server may write a web component's shadow tree into the HTML as a
// `<template shadowrootmode="open">` inside the component (declarative shadow DOM; Chrome's first
// form was `shadowroot="open"`). A browser attaches that template as the component's shadow root at
// once, without scripts, and draws the shadow tree in the component's place, the component's own
// children shown only where a `<slot>` takes them. Templates are never content, so every stage
// dropped the shadow tree and read only what the slots would have placed: a card's text written in
// its shadow tree was lost.

/** A template declaring a shadow root, without which a page has none for {@link placeShadowRoots}. */
export const SHADOW_ROOT_MARKUP = /<template\b[^>]*\bshadowroot(?:mode)?\s*=/i;

/**
 * Draws each declared shadow root of `document` in place, as a browser does: the component's
 * children give way to the template's content, and each `<slot>` in it to the children assigned to
 * it (those whose `slot` attribute names it, or for a slot without a name, those without one and
 * the text), else to the slot's own fallback content. Children no slot takes are not drawn, and go.
 * Inner components are drawn first; only a component's first such template is its shadow root.
 */
export function placeShadowRoots(document: Document): void {
  const templates = Array.from(document.querySelectorAll('template[shadowrootmode], template[shadowroot]'));
  for (const template of templates.reverse()) {
    const host = template.parentElement;
    if (host === null || firstShadowTemplate(host) !== template) continue;
    const light = Array.from(host.childNodes).filter((node) => node !== template);
    for (const node of light) node.remove();
    host.append(...Array.from(template.childNodes));
    template.remove();
    for (const slot of Array.from(host.querySelectorAll('slot'))) fillSlot(slot, light);
  }
}

/** The first child of `host` that declares a shadow root. */
function firstShadowTemplate(host: Element): Element | undefined {
  for (const child of Array.from(host.children)) {
    if (
      child.localName === 'template' &&
      (child.hasAttribute('shadowrootmode') || child.hasAttribute('shadowroot'))
    )
      return child;
  }
  return undefined;
}

/** Replaces `slot` with the nodes of `light` assigned to it, else with its fallback content. */
function fillSlot(slot: Element, light: readonly ChildNode[]): void {
  const name = slot.getAttribute('name') ?? '';
  const assigned = light.filter((node) => {
    if (node.parentNode !== null) return false;
    if (node.nodeType === 1) return ((node as Element).getAttribute('slot') ?? '') === name;
    return name === '' && node.nodeType === 3;
  });
  const shown = assigned.some((node) => node.nodeType === 1 || (node.textContent ?? '').trim() !== '');
  slot.replaceWith(...(shown ? assigned : Array.from(slot.childNodes)));
}
