// Qiguo's service worker: keeps the page's files so that an installed page starts without a
// network (lessons, hot seat, computers), and shows the notifications the server pushes to this
// device (Web Push) and those the page raises (Android's Chrome refuses `new Notification`).
//
// tools/build-web writes the version and the files below: the page, its worker's script, the
// manifest and every file whose name carries its content's hash. A new version is kept whole
// in a cache of its own before it takes over, and takes over only when the page asks (after
// the player said yes), so that a page never runs half old and half new.

const VERSION = "@VERSION@";
const FILES = @FILES@;
const CACHE = "qiguo-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("qiguo-") && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "take-up") {
    // The page's player chose to take up this version.
    self.skipWaiting();
  } else if (data.type === "notify") {
    event.waitUntil(show(data));
  }
});

// A file whose name carries its content's hash never changes: from the cache, else the network.
function hashed(url) {
  return /-[0-9a-f]{16}\.[a-z0-9]+$/.test(url.pathname);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // The page (/, /join/CODE, /watch/CODE, a mail link): the network's newest when there is
    // one, else this version's page (its <base> makes every path the same page).
    event.respondWith(
      fetch(request).catch(() =>
        caches.match("./", { cacheName: CACHE }).then((page) => page || Response.error()),
      ),
    );
    return;
  }
  if (hashed(url)) {
    event.respondWith(
      caches.match(request).then(
        (kept) =>
          kept ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }
  if (FILES.includes(url.pathname.slice(1)) || FILES.includes("./" + url.pathname.slice(1))) {
    // worker.js and the manifest: the network's, else this version's.
    event.respondWith(fetch(request).catch(() => caches.match(request, { cacheName: CACHE })));
  }
});

// A notification: `title`, `body`, `tag` (one per game: a newer one replaces it) and the `url`
// a click opens.
function show(note) {
  return self.registration.showNotification(note.title || "Qiguo", {
    body: note.body || "",
    tag: note.tag || "qiguo",
    renotify: true,
    icon: "@ICON@",
    badge: "@ICON@",
    data: { url: note.url || "/" },
  });
}

self.addEventListener("push", (event) => {
  let note = {};
  try {
    note = event.data ? event.data.json() : {};
  } catch (e) {
    note = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(show(note));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      // The page already open: brought forward, on the game.
      for (const client of open) {
        if (new URL(client.url).origin === target.origin && "focus" in client) {
          client.postMessage({ type: "open", url: target.pathname });
          return client.focus();
        }
      }
      return self.clients.openWindow(target.href);
    }),
  );
});
