// @ts-check
/**
 * The offline shell from the page's side: every page registers the service
 * worker for the whole site (`/sw.js`, scope `/`), which keeps the pages and
 * their files (see sw.js); the room's last state is kept by `laststate.js`.
 */

export const WORKER = "/sw.js";

/** Register the worker; without one (private mode, an old browser) the page works online as before. */
export function startOfflineShell() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(WORKER, { scope: "/" }).catch(() => {});
}
