/** Words of a class name or id that name one of the page's tools: what it does… */
const PAGE_TOOL_ACTIONS = new Set(['print', 'share', 'sharing']);
/** …and the other words such a name is made of (`EmailPrint`, `print-link`, `share_buttons`). */
const PAGE_TOOL_WORDS = new Set([
  ...PAGE_TOOL_ACTIONS,
  'email',
  'mail',
  'social',
  'link',
  'links',
  'button',
  'buttons',
  'btn',
  'icon',
  'icons',
  'tool',
  'tools',
  'bar',
  'this',
  'page',
  'article',
  'story',
]);

/**
 * Whether an element inside a byline, by its attributes, is one of the page's tools: one of its class
 * names or its id is made only of tool words and says what the tool does (`EmailPrint`,
 * `print-link`, `share_buttons`).
 * A byline that starts with a "Print" link names its writer after it. A utility class that says when
 * an element is printed (`d-print-none`, `no-print`, `print-only`) names no tool.
 */
export function isPageTool(attribs: Readonly<Record<string, string>> | undefined): boolean {
  const names = `${attribs?.class ?? ''} ${attribs?.id ?? ''}`;
  if (!/print|shar/i.test(names)) return false;
  return names.split(/\s+/).some((name) => {
    const words = name
      .split(/[-_]+|(?<=[a-z])(?=[A-Z])/)
      .filter((word) => word !== '')
      .map((word) => word.toLowerCase());
    return (
      words.some((word) => PAGE_TOOL_ACTIONS.has(word)) && words.every((word) => PAGE_TOOL_WORDS.has(word))
    );
  });
}
