// Types of Turndown's DOM-free build, the one `lazy-modules.ts` loads: the same API as the package entry.
declare module 'turndown/lib/turndown.browser.cjs.js' {
  import TurndownService from 'turndown';
  export default TurndownService;
}
