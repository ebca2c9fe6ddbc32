import { setTimeout as sleep } from 'node:timers/promises';
import { createBrowserPool } from './src/browser/index.js';
import { startBrowserSite } from './test/fixtures/browser-site.js';
import { request } from './test/browser/helpers.js';
const site = await startBrowserSite();
const pool = createBrowserPool({ executablePath: '/usr/bin/chromium', maxBrowsers: 1, maxPages: 8, pagesPerBrowser: 500, launchTimeoutMs: 30_000 }, {
  hangMarginMs: 3_000,
  afterNavigation: async (control, req) => { const a = new URL(req.url).searchParams.get('action'); if (a === 'freeze-browser') control.freezeBrowser(); if (a === 'kill-browser') control.killBrowser(); },
});
for (let round = 0; round < 4; round++) {
  await pool.render(request('playwright', `${site.url}/js`));
  try { await pool.render(request('playwright', `${site.url}/busy`, { timeoutMs: 1_200, waitFor: 500 })); } catch (e) { console.log('busy:', (e as any).code); }
  await pool.render(request('playwright', `${site.url}/js`));
  if (round % 2 === 1) { try { await pool.render(request('playwright', `${site.url}/js?action=kill-browser`)); } catch (e) { console.log('kill:', (e as any).code); } await pool.render(request('playwright', `${site.url}/js`)); }
  const t0 = Date.now();
  const before = pool.stats().byEngine.playwright.replaced;
  try { await pool.render(request('playwright', `${site.url}/js?action=freeze-browser`, { timeoutMs: 1_200, waitFor: 200 })); console.log('no error?'); } catch (e) { console.log('error', (e as any).code, Date.now() - t0, 'ms'); }
  for (let i = 0; i < 100 && pool.stats().byEngine.playwright.replaced === before; i++) await sleep(100);
  console.log('replaced after', Date.now() - t0, 'ms', pool.stats().byEngine.playwright.replaced - before);
}
await pool.close(); await site.close();
