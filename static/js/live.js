// Companion's live page: a change made on any phone shows on this one without a reload.
// The server says when the campaign's version moves (server-sent events, or polling where a
// stream cannot run) and its stream sends the page at the new version with the news (or, to a
// phone showing the version before, only the regions that changed; else this fetches the page
// again); this swaps the regions marked data-live that changed, leaving alone any region where
// the user is typing. No inline script: the CSP is strict.
(function () {
  "use strict";
  // The phone's time zone, for the server to show times in (companion/phone_time.py). A page
  // showing times drawn before the server knew it is drawn again, once.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    var cookies = document.cookie.split("; ");
    if (zone && /^[A-Za-z0-9_+\/-]{1,64}$/.test(zone) && cookies.indexOf("tz=" + zone) < 0) {
      document.cookie = "tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
      var kept = document.cookie.split("; ").indexOf("tz=" + zone) >= 0;
      if (kept && document.querySelector("time[datetime]")) window.location.reload();
    }
  } catch (err) { /* no Intl: the site's time zone */ }

  var root = document.getElementById("live-root");
  if (!root) { wakeLock(); return; }

  // The row of tabs scrolls sideways: the current one is brought into sight.
  var tabs = document.querySelector(".tabs"), current = tabs && tabs.querySelector("[aria-current=page]");
  if (current) {
    var edge = tabs.getBoundingClientRect().right, end = current.getBoundingClientRect().right;
    if (end > edge) tabs.scrollLeft += end - edge + 12;
  }
  var known = parseInt(root.dataset.version, 10);
  var streamUrl = root.dataset.stream;
  var pollUrl = root.dataset.poll;
  var busy = false, again = false, deferred = false;
  // Right-to-left letters (Hebrew to NKo, their presentation forms, the supplementary planes'
  // right-to-left scripts) and the direction controls: what campaigns/bidi.py calls turning.
  var TURNING = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u061C\u200F\u202A-\u202E\u2066-\u2069]|[\uD802\uD803\uD83A\uD83B][\uDC00-\uDFFF]/;
  // The newest version any answer has shown this page (this phone's own changes included):
  // a refresh that comes back older than that would put old content over new, so it is dropped.
  var newest = known;
  // What swap.js (this site's forms, sent without leaving the page) calls at each step.
  var hooks = window.companionSwap || {};

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

  // A region waits while the user is typing there, while a change from it is on its way or
  // waiting to be sent again, and while it shows a refusal the user has not acted on yet.
  function typingIn(region) {
    var el = document.activeElement;
    if (el && region.contains(el) && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) && el.type !== "hidden") {
      return true;
    }
    if (region.querySelector("form.htmx-request, form[data-not-sent], [data-held]")) return true;
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
  // One with an id keeps its state by id (an investigator that moves among the killed stays
  // open); the others by their place, when the region still has as many.
  function keepOpen(old, copy) {
    Array.prototype.forEach.call(copy.querySelectorAll("details[id]"), function (d) {
      var was = old.querySelector("details#" + CSS.escape(d.id));
      if (was) d.open = was.open;
    });
    var before = old.querySelectorAll("details:not([id])");
    var after = copy.querySelectorAll("details:not([id])");
    if (before.length !== after.length) return;
    for (var i = 0; i < before.length; i++) after[i].open = before[i].open;
  }

  // Returns true when part of the change had to wait because the user is typing there.
  function swap(old, next) {
    keepBuzzed(old, next);
    if (same(old, next)) return false;
    if (!typingIn(old)) {
      // Moved over from the parsed answer, not copied: nothing else reads it there, and a deep
      // copy of a large region was a third of what a live update cost the phone's script.
      var copy = document.adoptNode(next);
      keepOpen(old, copy);
      old.replaceWith(copy);
      return false;
    }
    regionsIn(old).forEach(function (inner) {
      var match = next.querySelector("#" + CSS.escape(inner.id));
      if (match) swap(inner, match);
    });
    return true;
  }

  // The answer to this phone's own change brings the regions it changed out of band. The one
  // the form sat in is swap.js's to replace; the others go through swap() like a live refresh:
  // one that did not change is left alone, and where the user is typing the region waits.
  var posted = null;
  hooks.before = function (elt) { posted = elt.closest("[data-live][id]"); };
  hooks.oob = function (old, next) {
    if (!old.matches("[data-live][id]")) return true;
    if (posted && (old === posted || old.contains(posted))) return true;
    if (swap(old, next)) deferred = true;
    return false;  // done here
  };

  // The regions of `fresh` over those of `within` (the page): a whole page has them all; a
  // partial one (the stream's, campaigns/live_delta.py) only those that changed, found at any
  // depth: a region it does not hold is looked into.
  function swapRegions(fresh, within) {
    var waiting = false;
    regionsIn(within || document.body).forEach(function (old) {
      var next = fresh.getElementById(old.id);
      if (next ? swap(old, next) : swapRegions(fresh, old)) waiting = true;
    });
    return waiting;
  }

  // After a partial page from version `from` to `v`, the regions it did not hold show version
  // v too: their forms say so (a change from them is not stale). Not a region the user is
  // typing in, or that holds a refusal or a change on its way (swap() left those as they were
  // if the partial page held them): it still shows `from`, as after a whole page.
  function movedOn(from, v) {
    var forms = document.querySelectorAll('input[name=version][value="' + from + '"]');
    var waits = new Map();  // region -> typingIn(region), looked at once, not once a form
    Array.prototype.forEach.call(forms, function (input) {
      var region = input.closest("[data-live][id]");
      if (region && !waits.has(region)) waits.set(region, typingIn(region));
      if (!region || !waits.get(region)) input.setAttribute("value", String(v));
    });
  }

  function here() { return window.location.pathname + window.location.search; }

  // The page at version v, as drawn for `address`, over what this one shows (only its changed
  // regions when it is partial: `from`, the version it was made from). False when it is
  // not for this page any more (older than what the phone has shown, or another address: a
  // search pushed ?q=… meanwhile).
  function show(html, v, address, from) {
    if (!isNaN(v) && v < newest) return false;
    if (address !== here()) return false;
    newest = Math.max(newest, isNaN(v) ? newest : v);
    var fresh = new DOMParser().parseFromString(html, "text/html");
    deferred = swapRegions(fresh);
    if (from !== undefined) movedOn(from, v);
    if (fresh.title) document.title = fresh.title;  // the campaign's name, renamed elsewhere
    if (!isNaN(v)) { known = v; root.dataset.version = String(v); }
    document.dispatchEvent(new CustomEvent("companion:refreshed"));
    return true;
  }

  function refresh() {
    if (over) return;
    if (busy) { again = true; return; }
    busy = true;
    var address = here();
    fetch(address, {
      headers: { "HX-Request": "true", "X-Live-Refresh": "true" },
      credentials: "same-origin",
      redirect: "manual",  // a page redirects only to log in
    }).then(function (response) {
      if (response.type === "opaqueredirect") { gone("login"); return null; }
      if (response.status === 404) { gone("deleted"); return null; }
      var v = parseInt(response.headers.get("X-Campaign-Version"), 10);
      return response.text().then(function (html) {
        if (!show(html, v, address)) again = true;
      });
    }).catch(function () { again = true; }).finally(function () {
      busy = false;
      if (again) { again = false; setTimeout(refresh, 300); }
    });
  }

  // The campaign was deleted, or this member removed: the page says so in place of the
  // campaign, with the way home. Not on the phone that is itself leaving (the owner's delete
  // form is on its way: that phone lands home with the message).
  var leaving = false, over = false;
  document.addEventListener("submit", function (e) {
    // A form swap.js sends stays on the page (it prevented the browser's own submit).
    if (!e.defaultPrevented) leaving = true;
  });
  window.addEventListener("pagehide", function () { leaving = true; });
  function gone(why) {
    if (leaving || over) return;
    over = true;
    // The session ended (logged out here or elsewhere, expired, a new password), or the member's
    // role changed, or a display's link was retired: the page again shows what the server says
    // now, the log-in page, the page for that role or the display's "not found".
    // A session that ended takes the pages this phone kept with it first (offline.js), so that
    // none of them is shown again, even offline.
    // (Drawn again once the server answers: a reload with no connection shows the browser's
    // error page, which nothing brings back, and "online" can come before the server is there.)
    if (why === "login" && hooks.ended) { hooks.ended().then(reloadOnceAnswered); return; }
    if (why === "login" || why === "role" || why === "retired") { window.location.reload(); return; }
    var notice = document.createElement("section");
    notice.className = "card gone";
    notice.setAttribute("role", "alert");
    var text = document.createElement("p");
    var title = document.getElementById("campaign-title");
    var name = title ? title.getAttribute("data-name") || "" : "";
    var words = (why === "removed" ? root.dataset.removed : root.dataset.deleted) || "";
    // A name that could turn the words around it is isolated for direction (campaigns/bidi.py).
    if (TURNING.test(name)) name = "\u2068" + name + "\u2069";
    text.textContent = words.replace("{name}", name);
    var home = document.createElement("a");
    home.className = "button";
    home.href = root.dataset.home || "/";
    home.textContent = root.dataset.homeLabel || "Home";
    notice.append(text, home);
    root.replaceChildren(notice);
    document.body.removeAttribute("data-wake-lock");
    document.dispatchEvent(new CustomEvent("companion:gone"));  // the phone forgets it (offline.js)
  }

  function reloadOnceAnswered() {
    var probe = document.querySelector("script[data-probe]");  // the manifest (offline.js's)
    fetch(probe ? probe.dataset.probe : "/manifest.webmanifest", { cache: "no-store" }).then(
      function () { window.location.reload(); },
      function () { setTimeout(reloadOnceAnswered, 1000); });
  }

  function seen(version) {
    if (version !== known) refresh();
  }

  // A region skipped because the user was typing catches up when they leave the field.
  document.addEventListener("focusout", function () {
    if (deferred) setTimeout(function () { if (deferred) refresh(); }, 50);
  });

  // Polling stands in for a stream that could not open, never for good (issue 21: after a server
  // restart that outlasted five tries, pages polled at 1.1-1.4 s a change until reloaded). The
  // stream is opened again as soon as a poll is answered after one was not (the server is back),
  // and else after a while that doubles each time the stream fails again (a proxy that would
  // not hold a stream may have let go).
  var canStream = !!(window.EventSource && streamUrl);
  var polling = false, away = false, pollsLeft = 0, patience = 15;
  function startPolling() {
    if (polling) return;
    polling = true;
    away = false;
    pollsLeft = patience;
    patience = Math.min(patience * 2, 240);
    poll();
  }
  function poll() {
    var answered = false;
    // Sent to log in: the session ended.
    fetch(pollUrl, { credentials: "same-origin", redirect: "manual" })
      .then(function (r) {
        if (r.type === "opaqueredirect") gone("login");
        if (r.status === 404) gone("deleted");
        answered = r.ok;
        return r.ok ? r.json() : null;
      })
      .then(function (data) {
        if (!data) return;
        // The member's role changed since the page was drawn (the stream would say "role").
        if (data.role && root.dataset.role && data.role !== root.dataset.role) { gone("role"); return; }
        seen(data.version);
      })
      .catch(function () {})
      .finally(function () {
        if (over) return;
        if (!answered) away = true;
        pollsLeft -= 1;
        if (canStream && answered && (away || pollsLeft <= 0)) {
          polling = false;
          failures = 0;
          listen();
        } else {
          setTimeout(poll, 2000);
        }
      });
  }

  var failures = 0;
  function listen() {
    if (!canStream) { startPolling(); return; }
    // The stream sends the page this phone shows with the news, so it need not ask for it.
    var page = here();
    // The role the page was drawn for: the stream ends when the member's is another.
    var role = root.dataset.role ? "&role=" + encodeURIComponent(root.dataset.role) : "";
    var source = new EventSource(
      streamUrl + "?v=" + known + role + "&page=" + encodeURIComponent(page));
    source.addEventListener("version", function (e) {
      failures = 0;
      try { seen(JSON.parse(e.data).version); } catch (err) { /* a malformed message: ignore */ }
    });
    source.addEventListener("page", function (e) {
      failures = 0;
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; /* a malformed message */ }
      // Older than what this phone's own change showed: the newer page is on its way.
      if (over || data.version === known || data.version < newest) return;
      // Only the regions changed since version `from`: for a page that shows exactly that one,
      // all of it. A page with a region held back (the user was typing there) shows an older
      // one in that region: it asks for the whole page, which brings what it missed.
      if (data.from !== undefined && (data.from !== known || deferred)) { refresh(); return; }
      // Drawn for the address the stream opened at; the phone has moved on (a search): ask.
      if (!show(data.html, data.version, page, data.from)) seen(data.version);
    });
    source.addEventListener("gone", function (e) {
      source.close();
      var why = "deleted";
      try { why = JSON.parse(e.data).why || why; } catch (err) { /* an older server */ }
      gone(why);
    });
    // A stream that opened is no failure; one that reached its lifetime says "end": a new one
    // starts from what this page shows. Only streams that fail to open five times in a row
    // leave the phone on polling.
    source.onopen = function () { failures = 0; patience = 15; };
    source.addEventListener("end", function () { source.close(); listen(); });
    source.onerror = function () {
      failures += 1;
      if (failures >= 5) { source.close(); startPolling(); }
      else if (source.readyState === EventSource.CLOSED) setTimeout(listen, 1000 * failures);
    };
  }

  // Every change this phone sends carries an id, "<this phone>.<this tap>": when the answer is
  // lost (the Wi-Fi dropped, the server restarted) the change is sent again with the same id and
  // the server applies it once. Until an answer comes, the form says "not sent" and keeps what
  // was typed, and it is sent again when the connection is back.
  function randomId(length) {
    var bytes = new Uint8Array(length);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b % 36).toString(36); }).join("");
  }
  var phone = null;
  try { phone = window.localStorage.getItem("companion-phone"); } catch (err) { /* private mode */ }
  if (!/^[a-z0-9]{16}$/.test(phone || "")) {
    phone = randomId(16);
    try { window.localStorage.setItem("companion-phone", phone); } catch (err) { /* kept for this page */ }
  }

  // The button that sent a form, so a second try sends the same button's value (not that of a
  // tap kept behind it: offline.js keeps its own).
  document.addEventListener("submit", function (e) {
    if (!e.target.matches(".htmx-request,[data-not-sent]")) e.target.companionSubmitter = e.submitter;
  }, true);

  hooks.configure = function (form, data) {  // a POST only
    // (Its turn among the taps that wait, should it wait: when it was made.)
    if (!form.companionChange) { form.companionChange = phone + "." + randomId(12); form.companionSince = Date.now(); }
    data.set("change", form.companionChange);
  };

  // A note next to the form (`kind`: its class), outside a row of buttons (a counter's − and +)
  // so the row keeps its shape; the same note says the newer words.
  function noteFor(form, kind, words) {
    var anchor = form;
    while (anchor.parentElement && !anchor.parentElement.hasAttribute("data-live") &&
           /flex|grid/.test(window.getComputedStyle(anchor.parentElement).display)) {
      anchor = anchor.parentElement;
    }
    var note = anchor.nextElementSibling;
    if (!note || !note.classList.contains(kind)) {
      note = document.createElement("p");
      note.className = kind;
      note.setAttribute("role", kind === "not-sent" ? "status" : "alert");
      anchor.after(note);
    }
    note.textContent = words;
    return note;
  }

  var retryTimer = null;
  hooks.notSent = function (form) { if (form.hasAttribute("data-not-sent")) notSent(form, form.companionStatus); };
  function notSent(form, status) {
    if (!form.isConnected || !form.companionChange) return;
    form.setAttribute("data-not-sent", "");
    if (!form.companionSince) form.companionSince = Date.now();  // its turn among the waiting
    // No answer at all: no connection; a proxy's 502-504: the server is not answering; 429:
    // it waited, and the server takes a member's changes no faster than its pace.
    var words = (status === 429 ? root.dataset.notSentBusy : status ? root.dataset.notSentServer
      : root.dataset.notSent) || "Not sent";
    // Taps kept behind it (offline.js): how many wait, this one included.
    var count = hooks.waiting ? hooks.waiting(form) : 1;
    if (count > 1) words += " " + (root.dataset.notSentMany || "{count} taps wait.").replace("{count}", count);
    form.companionStatus = status;
    form.companionNote = noteFor(form, "not-sent", words);
    if (!retryTimer) retryTimer = setTimeout(retryAll, 3000);
  }

  // An error answer: the page is as it was, what was typed included, and says what happened
  // next to the form, in the phone's language (the words come with the page), until the user
  // acts on it as on a refusal.
  hooks.failed = function (form, status, reason) {
    if (/^50[234]$/.test(String(status)) || !form.isConnected) return;  // sent again by itself
    var data = root.dataset;
    var words = status === 403 ? reason || data.refusedOwner
      : status === 404 ? data.refusedGone
      : status === 429 ? data.refusedBusy
      : status === 413 ? data.refusedLarge
      : status === 400 ? data.refusedUnread
      : data.refusedFailed;
    form.companionError = noteFor(form, "error", words || String(status));
    form.companionError.classList.add("not-done");
    holdRefusals();
  };

  hooks.answered = function (form, status, headers) {
    var v = headers ? parseInt(headers.get("X-Campaign-Version"), 10) : NaN;
    if (!isNaN(v) && v > newest) newest = v;
    // No answer (offline, timed out), or a proxy's while the server restarts: the change may
    // not have arrived. A change that waited and is answered "too many taps" waits its turn
    // again (offline.js sends it after the Retry-After): it is not refused, never dropped.
    var turn = status === 429 && form.hasAttribute("data-not-sent");
    if (!status || /^50[234]$/.test(String(status)) || turn) { notSent(form, status); return; }
    form.removeAttribute("data-not-sent");
    if (form.companionNote) { form.companionNote.remove(); form.companionNote = null; }
    // Answered: the next tap on this form is a new change; but after the server failed on it, a
    // "try again" is the same change (applied once, if it was applied before the failure).
    if (status < 500) { form.companionChange = null; form.companionSince = null; }
    if (status < 400 || status === 409 || status === 422) {
      var error = form.companionError;
      if (error && error.isConnected) {
        if (error.nextElementSibling && error.nextElementSibling.matches("button.dismiss")) {
          error.nextElementSibling.remove();
        }
        error.remove();
      }
      form.companionError = null;
    }
    if (document.querySelector("form[data-not-sent]")) retryAll();  // the next one's turn
  };

  function retryAll() {
    clearTimeout(retryTimer);
    retryTimer = null;
    // One at a time, the oldest first: the changes arrive in the order they were made (those
    // kept on the phone across a reload too, static/js/offline.js).
    var waiting = Array.prototype.slice.call(document.querySelectorAll("form[data-not-sent]"));
    if (!waiting.length) return;
    retryTimer = setTimeout(retryAll, 3000);
    // offline.js takes its turn among the taps kept for other pages, at the server's pace.
    if (hooks.drain) { hooks.drain(); return; }
    if (waiting.some(function (form) { return form.classList.contains("htmx-request"); })) return;
    waiting.sort(function (a, b) { return a.companionSince - b.companionSince; });
    resend(waiting[0]);
  }
  function resend(form) {
    var button = form.companionSubmitter;
    // A click, as the user's was, so the same button's name and value go with it; the same
    // tap, not one more (offline.js).
    form.companionAgain = true;
    if (button && form.contains(button) && !button.disabled) button.click();
    else form.requestSubmit();
    form.companionAgain = false;
  }
  hooks.resend = resend;
  window.addEventListener("online", retryAll);

  // A refusal stays until the user acts on it: types in its region, sends from it, or dismisses
  // it. A live refresh in between leaves its region as it is (message and typed values).
  function holdRefusals() {
    Array.prototype.forEach.call(document.querySelectorAll(".error[role=alert]:not([data-held])"), function (el) {
      el.setAttribute("data-held", "");
      var next = el.nextElementSibling;
      if (next && next.matches("button.dismiss")) return;  // said again: one way to dismiss it
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "quiet dismiss";
      dismiss.textContent = "✕";
      dismiss.setAttribute("aria-label", root.dataset.dismiss || "Dismiss");
      el.after(dismiss);
    });
  }
  // Held at once when swapped in, before any live refresh can land.
  hooks.swapped = function (status) {
    if (status === 409 || status === 422) holdRefusals();
  };
  function release(el) {
    var region = el.closest("[data-live]") || document.body;
    Array.prototype.forEach.call(region.querySelectorAll("[data-held]"), function (held) {
      held.removeAttribute("data-held");
    });
    if (deferred) setTimeout(function () { if (deferred) refresh(); }, 50);
  }
  document.addEventListener("click", function (e) {
    var dismiss = e.target.closest && e.target.closest("button.dismiss");
    if (!dismiss) return;
    var region = dismiss.closest("[data-live]") || document.body;
    var message = dismiss.previousElementSibling;
    if (message && message.matches(".error")) message.remove();
    dismiss.remove();
    release(region);
  });
  document.addEventListener("input", function (e) { release(e.target); });
  document.addEventListener("submit", function (e) { release(e.target); });

  // The screen stays on while a campaign is open. The Wake Lock API exists only in a secure
  // context (https or localhost); on the table's network the site is plain http, so there a
  // muted, looping video plays out of sight: phones keep the screen on while a video plays.
  function wakeLock() {
    var body = document.body;
    if (!body.hasAttribute("data-wake-lock")) return;
    if ("wakeLock" in navigator) {
      var ask = function () {
        if (document.visibilityState !== "visible") return;
        navigator.wakeLock.request("screen").then(function () {
          body.setAttribute("data-awake", "wake-lock");
        }).catch(function () {});
      };
      ask();
      document.addEventListener("visibilitychange", ask);
      return;
    }
    var video = document.createElement("video");
    video.className = "keep-awake";
    video.muted = true;
    video.loop = true;
    video.playsInline = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.setAttribute("tabindex", "-1");
    ["mp4", "webm"].forEach(function (kind) {
      var url = body.getAttribute("data-wake-video-" + kind);
      if (!url) return;
      var source = document.createElement("source");
      source.src = url;
      source.type = "video/" + kind;
      video.appendChild(source);
    });
    body.appendChild(video);
    video.addEventListener("playing", function () { body.setAttribute("data-awake", "video"); });
    video.addEventListener("pause", function () { body.removeAttribute("data-awake"); });
    var play = function () {
      if (document.visibilityState === "visible" && video.paused) video.play().catch(function () {});
    };
    play();
    // A phone that refuses to play before a tap plays from the first one (a tap's play() is
    // also never paused for being out of sight).
    document.addEventListener("pointerdown", play, true);
    document.addEventListener("click", play, true);
    document.addEventListener("visibilitychange", play);
  }

  // What a phone taps every turn stays in sight after its own tap redraws it (the chaos bag's
  // test: the token, the outcome and the next buttons): scrolled just enough, above the undo bar.
  hooks.settled = function (added) {
    var keep = null;
    added.some(function (el) { return (keep = el.closest("[data-in-sight]")); });
    if (!keep) return;
    var bar = document.getElementById("undo-bar");
    var bottom = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    var box = keep.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= bottom) return;
    var by = box.height > bottom ? box.top : Math.min(box.top, box.bottom - bottom);
    window.scrollBy({ top: by, behavior: "instant" });
  };

    // A short buzz where the phone allows, when a region asks for it (a draw, say).
  document.addEventListener("companion:refreshed", function () {
    var el = document.querySelector("[data-buzz]:not([data-buzzed])");
    if (el && navigator.vibrate) { el.setAttribute("data-buzzed", ""); navigator.vibrate(60); }
  });

  wakeLock();
  listen();
})();
