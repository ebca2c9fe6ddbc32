// Chromium command-line flags shared by both engines.

/**
 * Flags that work as root on this machine kind (docs/browser.md explains each). Without the
 * background-networking ones Chromium contacts Google hosts at start and logs failures.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // WebRTC may only use proxied connections: no UDP to addresses the request guard never sees.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // A reused page would keep every earlier document of the crawl in the back-forward cache.
  '--disable-features=BackForwardCache',
  '--mute-audio',
  '--hide-scrollbars',
];

/** Viewport of every context (and the size of a 'viewport' screenshot). */
export const VIEWPORT = { width: 1280, height: 800 } as const;
/** Viewport of a `mobile` render: a common phone's CSS size, at twice its pixel density, with touch. */
export const MOBILE_VIEWPORT = { width: 390, height: 844, deviceScaleFactor: 2 } as const;

/** Resource types that load only when a screenshot is asked for. */
export const HEAVY_RESOURCE_TYPES: ReadonlySet<string> = new Set(['image', 'media', 'font']);
