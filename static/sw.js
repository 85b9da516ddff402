// @ts-check
/// <reference lib="webworker" />
/**
 * The service worker (served at /sw.js, scope /: the whole site). Two parts:
 * turn alerts — it shows a turn alert that arrives by Web Push, and opens (or
 * focuses) the room when it is clicked; the payload is what the server
 * encrypted for this subscription: `{title, body, url, tag, kind}`, with `url`
 * a path on this site — and, below, the offline shell. (Devices that turned on
 * notifications before the scope grew keep a second registration at /r/; it
 * runs this same script.)
 */

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** @param {PushMessageData|null} data */
function readPayload(data) {
  if (!data) return {};
  try {
    const value = data.json();
    return value && typeof value === "object" ? value : {};
  } catch {
    return { title: data.text() };
  }
}

/** A path on this site only: a push can't send the player elsewhere. @param {unknown} url */
function sameSite(url) {
  try {
    const target = new URL(typeof url === "string" ? url : "/", sw.location.origin);
    return target.origin === sw.location.origin ? target.href : sw.location.origin + "/";
  } catch {
    return sw.location.origin + "/";
  }
}

sw.addEventListener("install", () => {
  sw.skipWaiting();
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener("push", (event) => {
  const payload = readPayload(event.data);
  const title = typeof payload.title === "string" && payload.title ? payload.title : "Spieltisch";
  event.waitUntil(
    sw.registration.showNotification(title, {
      body: typeof payload.body === "string" ? payload.body : "",
      tag: typeof payload.tag === "string" ? payload.tag : undefined,
      icon: "/static/favicon-turn.svg",
      badge: "/static/favicon-turn.svg",
      data: { url: sameSite(payload.url) },
    }),
  );
});

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameSite(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (client.url.split("#")[0] === url && "focus" in client) return client.focus();
      }
      return sw.clients.openWindow(url);
    })(),
  );
});

/* ---- The offline shell ---------------------------------------------------
 * The pages and their files, kept so that an installed app opened without a
 * network still draws the start page and every room (the room's last state is
 * kept by the page itself, js/laststate.js). Installing fetches them all;
 * online, every answer still comes from the server first and refreshes the copy.
 * Copies are kept under fixed keys made of a path alone — never a query or a
 * fragment, so no token can end up in a key — and only for the pages and
 * /static/; the API and the socket always go to the network.
 */

// the server writes both lines (app/web/shell.py): a changed file changes the version,
// so this script changes, browsers install it again and the old shell is dropped
const SHELL_VERSION = "unfilled";
const SHELL_FILES = ["/"];
const SHELL_PREFIX = "spieltisch-shell-";
const SHELL = SHELL_PREFIX + SHELL_VERSION;

/**
 * The key a copy of this address is kept under, or null when it is not kept.
 * Every room page is the same file, so they share one copy.
 * @param {URL} url
 * @returns {string|null}
 */
function shellKey(url) {
  if (url.origin !== sw.location.origin) return null;
  const path = url.pathname;
  if (path === "/" || path === "/manifest.webmanifest") return path;
  if (/^\/r\/[^/]+\/?$/.test(path)) return "/static/room.html";
  if (path.startsWith("/static/") && !path.startsWith("/static/tests/")) return path;
  return null;
}

/** Fetch every file of the shell; one that fails is fetched when it is next used. */
async function keepShell() {
  const cache = await caches.open(SHELL);
  await Promise.all(
    SHELL_FILES.map(async (path) => {
      try {
        const response = await fetch(path, { cache: "no-cache" });
        if (response.ok && !response.redirected) await cache.put(path, response);
      } catch {
        // offline while installing: the copy is made on the next use
      }
    }),
  );
}

/** @param {FetchEvent} event @param {string} key */
async function networkFirst(event, key) {
  const cache = await caches.open(SHELL);
  try {
    const response = await fetch(event.request);
    if (response.ok && !response.redirected && response.type === "basic") event.waitUntil(cache.put(key, response.clone()));
    return response;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

/** Drop the shells of earlier versions. */
async function dropOldShells() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(SHELL_PREFIX) && n !== SHELL).map((n) => caches.delete(n)));
}

sw.addEventListener("install", (event) => {
  event.waitUntil(keepShell());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(dropOldShells());
});

sw.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  const key = shellKey(new URL(event.request.url));
  if (key !== null) event.respondWith(networkFirst(event, key));
});
