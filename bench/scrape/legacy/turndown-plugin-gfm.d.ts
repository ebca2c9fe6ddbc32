// Type declarations for @joplin/turndown-plugin-gfm, which ships none (only the plugin used here).
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const strikethrough: TurndownService.Plugin;
  export const gfm: TurndownService.Plugin;
}
