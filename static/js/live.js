// Companion's live page: a change made on any phone shows on this one without a reload.
// The server says when the campaign's version moves (server-sent events, or polling where a
// stream cannot run); this fetches the page again and swaps the regions marked data-live that
// changed, leaving alone any region where the user is typing. No inline script: the CSP is strict.
(function () {
  "use strict";
  var root = document.getElementById("live-root");
  if (!root) { wakeLock(); return; }
  var known = parseInt(root.dataset.version, 10);
  var streamUrl = root.dataset.stream;
  var pollUrl = root.dataset.poll;
  var busy = false, again = false, deferred = false;
  // The newest version any answer has shown this page (this phone's own changes included):
  // a refresh that comes back older than that would put old content over new, so it is dropped.
  var newest = known;
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    var v = xhr ? parseInt(xhr.getResponseHeader("X-Campaign-Version"), 10) : NaN;
    if (!isNaN(v) && v > newest) newest = v;
  });

  // A field the user has changed and not sent yet: its region waits, so nothing typed is lost.
  function edited(el) {
    if (/^(hidden|submit|button|reset)$/.test(el.type)) return false;
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      var chosen = 0;
      for (var i = 0; i < el.options.length; i++) if (el.options[i].defaultSelected) chosen = i;
      return el.selectedIndex !== chosen;
    }
    return el.value !== el.defaultValue;
  }

  function typingIn(region) {
    var el = document.activeElement;
    if (el && region.contains(el) && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== "hidden") {
      return true;
    }
    return Array.prototype.some.call(region.querySelectorAll("input, textarea, select"), edited);
  }

  // Each answer carries a fresh CSRF token in every form; that alone is no change to show.
  var TOKEN = /name="csrfmiddlewaretoken" value="[^"]*"/g;
  function same(a, b) {
    return a.outerHTML.replace(TOKEN, "") === b.outerHTML.replace(TOKEN, "");
  }

  function regionsIn(el) {
    // The regions directly inside el (not those inside a nested region).
    return Array.prototype.filter.call(el.querySelectorAll("[data-live][id]"), function (r) {
      var up = r.parentElement && r.parentElement.closest("[data-live][id]");
      return el.matches("[data-live][id]") ? up === el : !up;
    });
  }

  // A buzz already felt stays felt: its marker moves to the element with the same id in the
  // fresh copy, so an unchanged region still compares equal and a redrawn one does not buzz again.
  function keepBuzzed(old, next) {
    var felt = Array.prototype.slice.call(old.querySelectorAll("[data-buzzed][id]"));
    if (old.matches("[data-buzzed][id]")) felt.push(old);
    felt.forEach(function (el) {
      var twin = next.id === el.id ? next : next.querySelector("#" + CSS.escape(el.id));
      if (twin) twin.setAttribute("data-buzzed", "");
    });
  }

  // What the reader opened stays open: another phone's change does not fold a <details> shut.
  function keepOpen(old, copy) {
    var before = old.querySelectorAll("details"), after = copy.querySelectorAll("details");
    if (before.length !== after.length) return;
    for (var i = 0; i < before.length; i++) after[i].open = before[i].open;
  }

  // Returns true when part of the change had to wait because the user is typing there.
  function swap(old, next) {
    keepBuzzed(old, next);
    if (same(old, next)) return false;
    if (!typingIn(old)) {
      var copy = document.importNode(next, true);
      keepOpen(old, copy);
      old.replaceWith(copy);
      if (window.htmx) window.htmx.process(copy);
      return false;
    }
    regionsIn(old).forEach(function (inner) {
      var match = next.querySelector("#" + CSS.escape(inner.id));
      if (match) swap(inner, match);
    });
    return true;
  }

  // The answer to this phone's own change brings the regions it changed out of band: the one
  // the form sat in is swapped; another where the user is typing waits like a live refresh,
  // and one that did not change is left alone (so focus and open folds stay).
  var posted = null;
  document.body.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    posted = elt && elt.closest ? elt.closest("[data-live][id]") : null;
  });
  document.body.addEventListener("htmx:oobBeforeSwap", function (e) {
    var old = e.detail.target, next = e.detail.fragment && e.detail.fragment.firstElementChild;
    if (!old || !next || !old.matches("[data-live][id]")) return;
    keepBuzzed(old, next);
    if (same(old, next)) { e.detail.shouldSwap = false; return; }
    if (old !== posted && !old.contains(posted) && typingIn(old)) {
      e.detail.shouldSwap = false;
      deferred = true;
      return;
    }
    if (old !== posted) keepOpen(old, next);
  });

  function swapRegions(fresh) {
    var waiting = false;
    regionsIn(document.body).forEach(function (old) {
      var next = fresh.getElementById(old.id);
      if (next && swap(old, next)) waiting = true;
    });
    return waiting;
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    var address = window.location.pathname + window.location.search;
    fetch(address, {
      headers: { "HX-Request": "true", "X-Live-Refresh": "true" },
      credentials: "same-origin",
    }).then(function (response) {
      if (response.status === 404) { window.location.reload(); return null; }
      var v = parseInt(response.headers.get("X-Campaign-Version"), 10);
      return response.text().then(function (html) {
        if (!isNaN(v) && v < newest) { again = true; return; }
        // The address moved meanwhile (a search pushed ?q=…): this answer is for the old one.
        if (address !== window.location.pathname + window.location.search) { again = true; return; }
        newest = Math.max(newest, isNaN(v) ? newest : v);
        var fresh = new DOMParser().parseFromString(html, "text/html");
        deferred = swapRegions(fresh);
        if (!isNaN(v)) { known = v; root.dataset.version = String(v); }
        document.dispatchEvent(new CustomEvent("companion:refreshed"));
      });
    }).catch(function () { again = true; }).finally(function () {
      busy = false;
      if (again) { again = false; setTimeout(refresh, 300); }
    });
  }

  function seen(version) {
    if (version !== known) refresh();
  }

  // A region skipped because the user was typing catches up when they leave the field.
  document.addEventListener("focusout", function () {
    if (deferred) setTimeout(function () { if (deferred) refresh(); }, 50);
  });

  function poll() {
    fetch(pollUrl, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) seen(data.version); })
      .catch(function () {})
      .finally(function () { setTimeout(poll, 2000); });
  }

  var failures = 0;
  function listen() {
    if (!window.EventSource || !streamUrl) { poll(); return; }
    var source = new EventSource(streamUrl + "?v=" + known);
    source.addEventListener("version", function (e) {
      failures = 0;
      try { seen(JSON.parse(e.data).version); } catch (err) { /* a malformed message: ignore */ }
    });
    source.addEventListener("gone", function () { source.close(); window.location.reload(); });
    // A stream that opened is no failure; one that reached its lifetime says "end": a new one
    // starts from what this page shows. Only streams that fail to open five times in a row
    // leave the phone on polling.
    source.onopen = function () { failures = 0; };
    source.addEventListener("end", function () { source.close(); listen(); });
    source.onerror = function () {
      failures += 1;
      if (failures >= 5) { source.close(); poll(); }
      else if (source.readyState === EventSource.CLOSED) setTimeout(listen, 1000 * failures);
    };
  }

  function wakeLock() {
    if (!document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) return;
    var ask = function () {
      if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
    };
    ask();
    document.addEventListener("visibilitychange", ask);
  }

  // A short buzz where the phone allows, when a region asks for it (a draw, say).
  document.addEventListener("companion:refreshed", function () {
    var el = document.querySelector("[data-buzz]:not([data-buzzed])");
    if (el && navigator.vibrate) { el.setAttribute("data-buzzed", ""); navigator.vibrate(60); }
  });

  wakeLock();
  listen();
})();
