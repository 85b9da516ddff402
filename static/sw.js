// @ts-check
/// <reference lib="webworker" />
/**
 * The service worker (served at /sw.js, scope /r/): shows a turn alert that
 * arrives by Web Push, and opens (or focuses) the room when it is clicked. The
 * payload is what the server encrypted for this subscription:
 * `{title, body, url, tag, kind}`, with `url` a path on this site.
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
