// The engines' drivers, each loading its automation library on its first launch: importing
// playwright-core and puppeteer-core costs about 0.55 s of every start, and most processes (an
// `api` process, a service that only scrapes over HTTP) never open a browser.
import type { Driver } from './driver.js';
import type { BrowserEngineName } from './types.js';

function lazyDriver(engine: BrowserEngineName, load: () => Promise<Driver>): Driver {
  let loaded: Promise<Driver> | undefined;
  return {
    engine,
    async launch(options) {
      loaded ??= load();
      return (await loaded).launch(options);
    },
  };
}

export function defaultDrivers(): Record<BrowserEngineName, Driver> {
  return {
    playwright: lazyDriver('playwright', async () => (await import('./playwright-driver.js')).playwrightDriver),
    puppeteer: lazyDriver('puppeteer', async () => (await import('./puppeteer-driver.js')).puppeteerDriver),
  };
}
