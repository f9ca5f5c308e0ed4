// What both first-value pages share: reading the store URL from `?store=` and handing the
// figures to browser.mjs.

/** The store URL the page was given (`?store=`, relative to the page). */
export const storeUrl = () => new URL(new URLSearchParams(location.search).get("store"), location.href).href;

/**
 * Reports the first value to browser.mjs: when the entry module started running and when
 * the value arrived (`performance.now()`: milliseconds from navigation), and the value.
 */
export function reportFirstValue(entryStarted, firstValue, value) {
  globalThis.firstValue = { entryStarted, firstValue, timeOrigin: performance.timeOrigin, value };
}
