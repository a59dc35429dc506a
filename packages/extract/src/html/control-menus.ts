/**
 * The ARIA roles of a menu of the page's controls and of its items: a site's navigation bar, an
 * account or "Report this comment" menu, the options of a filter's dropdown. What they hold is never
 * the page's text (see docs/heuristics.md, "Menus of the page's controls").
 */
export const CONTROL_MENU_ROLES: ReadonlySet<string> = new Set([
  'menu',
  'menubar',
  'menuitem',
  'menuitemradio',
  'menuitemcheckbox',
]);

/** A selector of the elements whose role is one of {@link CONTROL_MENU_ROLES}. */
export const CONTROL_MENU_SELECTOR = [...CONTROL_MENU_ROLES].map((role) => `[role="${role}"]`).join(', ');

/** Whether a `role` attribute's value marks a menu of controls or one of its items. */
export function isControlMenuRole(role: string | undefined): boolean {
  return role !== undefined && CONTROL_MENU_ROLES.has(role.trim().toLowerCase());
}
