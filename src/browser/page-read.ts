// Reading a rendered page's DOM, and the backstop of library-side timeouts: shared by the render's steps and actions.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DriverSession } from './driver.js';
import { isTargetGone } from './errors.js';
import type { RenderRun } from './render.js';

/** Library-side timeouts are set this far past the render's deadline, so that our deadline decides. */
export const BACKSTOP_MS = 2_000;
/** A page that navigates itself while we read it: read again this many times. */
const READ_ATTEMPTS = 3;

/** The serialized DOM; read again when the page navigates meanwhile ("Execution context was destroyed"). */
export async function readDom(session: DriverSession, run: RenderRun): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run.race(session.html());
    } catch (err) {
      if (attempt >= READ_ATTEMPTS || run.interrupted || isTargetGone(err)) throw err;
      await run.race(sleep(100));
    }
  }
}
