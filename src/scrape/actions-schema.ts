// The `actions` page option (docs/api.md, "Browser actions"): its request shape, its limits, and the engine-neutral
// steps it stands for (browser/actions.ts runs them).
import { z } from 'zod';
import type { BrowserAction } from '../browser/types.js';
import { canonicalKey, KEY_NAMES } from '../browser/keys.js';
import { isValidCssSelector } from './extract/index.js';

export const MAX_ACTIONS = 50;
/** Each is a PNG kept with the job, like the screenshot format. */
export const MAX_SCREENSHOT_ACTIONS = 5;
/** Each holds a whole DOM in the result. */
export const MAX_SCRAPE_ACTIONS = 5;
export const MAX_SCRIPT_CHARS = 100_000;
export const MAX_WRITE_CHARS = 10_000;
/** The longest single wait (the page's timeout bounds all of them together). */
export const MAX_WAIT_MS = 300_000;

const selector = z
  .string()
  .min(1)
  .max(1000)
  .refine((s) => isValidCssSelector(s), { message: 'Not a valid CSS selector' });

const waitAction = z
  .strictObject({
    type: z.literal('wait'),
    milliseconds: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
    selector: selector.optional(),
  })
  .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
    message: 'A wait action takes either milliseconds or a selector',
  });

const key = z
  .string()
  .min(1)
  .max(20)
  .refine((k) => canonicalKey(k) !== undefined, {
    message: `Not a key this service can press: one printable character, or one of ${KEY_NAMES.join(', ')}`,
  });

export const actionSchema = z.discriminatedUnion('type', [
  waitAction,
  z.strictObject({ type: z.literal('click'), selector, all: z.boolean().optional() }),
  z.strictObject({ type: z.literal('write'), text: z.string().max(MAX_WRITE_CHARS) }),
  z.strictObject({ type: z.literal('press'), key }),
  z.strictObject({
    type: z.literal('scroll'),
    direction: z.enum(['up', 'down']).optional(),
    selector: selector.optional(),
  }),
  z.strictObject({ type: z.literal('screenshot'), full_page: z.boolean().optional() }),
  z.strictObject({ type: z.literal('scrape') }),
  z.strictObject({ type: z.literal('execute_javascript'), script: z.string().min(1).max(MAX_SCRIPT_CHARS) }),
]);
export type ActionInput = z.infer<typeof actionSchema>;

export const actionsSchema = z
  .array(actionSchema)
  .max(MAX_ACTIONS)
  .superRefine((actions, ctx) => {
    const count = (type: ActionInput['type']) => actions.filter((a) => a.type === type).length;
    if (count('screenshot') > MAX_SCREENSHOT_ACTIONS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_SCREENSHOT_ACTIONS} screenshot actions per page` });
    if (count('scrape') > MAX_SCRAPE_ACTIONS)
      ctx.addIssue({ code: 'custom', message: `At most ${MAX_SCRAPE_ACTIONS} scrape actions per page` });
  });

/** The steps `actions` stand for, with every default applied. */
export function browserActions(actions: readonly ActionInput[]): BrowserAction[] {
  return actions.map((action): BrowserAction => {
    switch (action.type) {
      case 'wait':
        return action.selector !== undefined
          ? { type: 'wait', selector: action.selector }
          : { type: 'wait', milliseconds: action.milliseconds ?? 0 };
      case 'click':
        return { type: 'click', selector: action.selector, all: action.all ?? false };
      case 'press':
        return { type: 'press', key: canonicalKey(action.key) ?? action.key };
      case 'scroll':
        return {
          type: 'scroll',
          direction: action.direction ?? 'down',
          ...(action.selector !== undefined ? { selector: action.selector } : {}),
        };
      case 'screenshot':
        return { type: 'screenshot', fullPage: action.full_page ?? false };
      default:
        return action;
    }
  });
}

/** The fixed waits of `actions` together (ms): more than the page's timeout cannot finish. */
export function totalWaitMs(actions: readonly ActionInput[]): number {
  return actions.reduce((sum, a) => sum + (a.type === 'wait' ? (a.milliseconds ?? 0) : 0), 0);
}
