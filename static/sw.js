// Companion's service worker: the pages this phone has shown stay with it, so a reload without
// the connection shows the campaign (marked offline) instead of the browser's error page.
//
// Served at /sw.js (campaigns/views/site.py), so its scope is the whole site; the view puts
// self.COMPANION before this: the site's version (the cache's name, so a new deploy replaces
// the cache whole), the static files a page needs, where static files live and the log-out URL.
//
// What is kept: a page whose answer says X-Companion-Keep (the table, a game's pages, the
// history and the home page, as the server drew them for this member), with when and at which
// version; the first page a phone shows, before this worker, as it shows it, when the page
// carries the same mark (offline.js's data-keep). Never the members or settings page, nothing
// the server did not mark. A session that ends forgets everything: a log out; a kept page sent
// to log in (expired, a new password on another device); a page drawn for another member or
// none, or a stream that says the session ended (offline.js tells this worker). A campaign page
// the server refuses (removed, deleted: 403, 404) forgets what was kept of that campaign, and so
// does the page (offline.js) when its stream says the campaign is gone. Nothing else is
// stored: the answers to taps, the stream and the live refresh go to the network as before. The
// pages never hold an undrawn order or the next token (the server keeps them), so neither does
// this.
"use strict";
var CONFIG = self.COMPANION || { version: "dev", assets: [], static: "/static/", logout: "/logout/" };
var CACHE = "companion-" + CONFIG.version;
var WHO = "/.companion-who";  // the member the kept pages belong to
// A network that says nothing (the phone fell back to mobile data, where the laptop's address
// leads nowhere) is given this long before the kept page is shown; long enough that a busy
// server is not taken for a missing one.
var PATIENCE = 10000;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(CONFIG.assets);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name !== CACHE && name.indexOf("companion-") === 0;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function campaignOf(path) {
  var match = /^\/c\/(\d+)\//.exec(path);
  return match ? match[1] : null;
}

function forgetAll() {
  return caches.open(CACHE).then(function (cache) {
    // Whose pages they were first: without it, no kept page is shown (kept()).
    return cache.delete(WHO).then(function () { return cache.keys(); }).then(function (requests) {
      return Promise.all(requests.map(function (request) {
        var path = new URL(request.url).pathname;
        return path.indexOf(CONFIG.static) === 0 ? null : cache.delete(request);
      }));
    });
  });
}

// What was kept of one campaign, and the home page (it lists the campaign).
function forget(pk) {
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        var path = new URL(request.url).pathname;
        return campaignOf(path) === pk || path === "/" ? cache.delete(request) : null;
      }));
    });
  });
}

function keep(cache, key, html, who, version) {
  return cache.put(key, new Response(html, { headers: {
    "Content-Type": "text/html; charset=utf-8",
    "X-Companion-Keep": who,
    "X-Companion-Version": version || "",
    "X-Companion-Kept-At": String(Date.now()),
  } }));
}

// A page the server marked as one this member may keep (`who`), kept at its version.
function store(key, html, who, version) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(WHO).then(function (was) {
      return was ? was.text() : who;
    }).then(function (before) {
      // Another member on this phone (logged in without logging out): nothing of the first.
      return (before === who ? Promise.resolve() : forgetAll()).then(function () {
        return cache.put(WHO, new Response(who));
      });
    }).then(function () {
      return cache.match(key, { ignoreVary: true });
    }).then(function (before) {
      // An answer that set out before the page moved on (a version the phone has shown a
      // newer one of) does not replace the newer copy.
      var was = before ? parseInt(before.headers.get("X-Companion-Version"), 10) : NaN;
      if (!isNaN(was) && parseInt(version, 10) < was) return null;
      return keep(cache, key, html, who, version);
    });
  });
}

// A page's answer from the network: kept when the server says so, and what the server no
// longer shows this member forgotten.
function remember(url, response) {
  var who = response.headers.get("X-Companion-Keep");
  var pk = campaignOf(url.pathname);
  if (response.type === "opaqueredirect") {
    // A page this phone kept is sent elsewhere only to log in: the session ended (it expired,
    // the password was changed on another device, a log out elsewhere). Nothing kept stays.
    return caches.open(CACHE).then(function (cache) {
      return cache.match(url.pathname + url.search, { ignoreVary: true });
    }).then(function (found) {
      return found || url.pathname === "/" ? forgetAll() : pk ? forget(pk) : null;
    });
  }
  if (response.status === 403 || response.status === 404 || response.status === 410) {
    return pk ? forget(pk) : Promise.resolve();
  }
  if (!response.ok || !who) return Promise.resolve();
  return response.text().then(function (html) {
    return store(url.pathname + url.search, html, who, response.headers.get("X-Campaign-Version"));
  });
}

// The kept page, marked with when it was kept (offline.js shows "Offline: as of HH:MM"); only
// one kept for the member whose session kept it, while that session lasts.
function kept(url) {
  return caches.open(CACHE).then(function (cache) {
    return Promise.all([cache.match(url.pathname + url.search, { ignoreVary: true }), cache.match(WHO)]);
  }).then(function (both) {
    var found = both[0], who = both[1];
    if (!found || !who) return null;
    return who.text().then(function (member) {
      return member === found.headers.get("X-Companion-Keep") ? found : null;
    });
  }).then(function (found) {
    if (!found) return null;
    var at = found.headers.get("X-Companion-Kept-At") || "";
    return found.text().then(function (html) {
      html = html.replace(/<body/, '<body data-kept="' + at.replace(/\D/g, "") + '"');
      return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

function navigate(event, url) {
  var network = fetch(event.request);
  event.waitUntil(network.then(function (response) {
    return remember(url, response.clone());
  }).catch(function () {}));
  var waited = new Promise(function (resolve) { setTimeout(resolve, PATIENCE); });
  var fallback = function () {
    return kept(url).then(function (page) { return page || network; });
  };
  return Promise.race([network, waited.then(function () { return null; })]).then(function (response) {
    return response || fallback();
  }, fallback).catch(function () { return Response.error(); });
}

// Static files: their names carry their content's hash, so a kept copy is the same file.
function asset(event) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(event.request).then(function (found) {
      var fresh = fetch(event.request).then(function (response) {
        if (response.ok) cache.put(event.request, response.clone());
        return response;
      });
      if (found && CONFIG.hashed) return found;
      return fresh.catch(function () { return found || Response.error(); });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST" && url.pathname === CONFIG.logout) {
    event.waitUntil(forgetAll());
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") event.respondWith(navigate(event, url));
  else if (url.pathname.indexOf(CONFIG.static) === 0) event.respondWith(asset(event));
});

// From the pages (offline.js): keep this page as it shows (it was shown before this worker
// took over, and the server marked it as one to keep: `who`); keep what the page shows now (a
// live refresh moved it on), over a kept copy only; forget a campaign whose stream said it is
// gone, or everything (answering, when asked, once it is done); forget what was kept for a
// member other than the one whose page it is.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var done;
  if (data.first && data.who && typeof data.html === "string") {
    var url = new URL(data.first, self.location.origin);
    done = store(url.pathname + url.search, data.html, String(data.who), String(data.version || ""));
  } else if (data.shown) {
    done = caches.open(CACHE).then(function (cache) {
      return cache.match(data.shown, { ignoreVary: true }).then(function (found) {
        if (!found) return null;
        var was = parseInt(found.headers.get("X-Companion-Version"), 10);
        if (!isNaN(was) && !(data.version >= was)) return null;
        return keep(cache, data.shown, data.html, found.headers.get("X-Companion-Keep"), String(data.version));
      });
    });
  } else if (data.forget) {
    done = forget(String(data.forget));
  } else if (data.forgetAll) {
    done = forgetAll();
  } else if (typeof data.member === "string") {
    // A page drawn just now says whose session it is (none: logged out, expired): what was
    // kept for another member, or for a session that is over, is forgotten.
    done = caches.open(CACHE).then(function (cache) { return cache.match(WHO); }).then(function (was) {
      return was ? was.text() : null;
    }).then(function (who) {
      return who !== null && (who !== data.member || !data.member) ? forgetAll() : null;
    });
  }
  var port = event.ports && event.ports[0];
  var answer = function () { if (port) port.postMessage({ done: true }); };
  if (done) event.waitUntil(done.catch(function () {}).then(answer));
  else answer();
});
