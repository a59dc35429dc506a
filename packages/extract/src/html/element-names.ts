/** Whether the id or one of the class names of `element`, each taken whole, passes `test`. */
export function hasName(element: Element, test: (name: string) => boolean): boolean {
  if (element.id !== '' && test(element.id)) return true;
  return (element.getAttribute('class') ?? '').split(/\s+/).some((name) => name !== '' && test(name));
}
