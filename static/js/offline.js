// Companion without the connection: the pages this phone has shown stay with it (static/sw.js),
// and a tap made offline waits on the phone, across a reload, an app switch or the browser
// closing, until the connection is back; then it is sent once, in order (live.js sends it with
// its change id, which the server applies once).
//
// - The service worker is registered where the browser allows one: a secure context (https,
//   http://localhost or 127.0.0.1). On a LAN address over plain http the site works as before.
// - A page the worker shows from what it kept says so ("Offline: as of HH:MM…"), and is
//   replaced by the current page as soon as the server answers again.
// - A tap that waits is kept in localStorage with its change id, its form's fields and the page
//   it was made on, for this member; shown again as "Not sent" on its form when its page is.
// - Waiting taps go one at a time, oldest first, at the server's pace (data-taps-per-second);
//   one refused says so, naming it, next to its form or at the top of the page; "too many
//   taps" is no refusal: it goes again after the Retry-After.
// - A session that ended (the stream says so, a page or a tap is sent to log in, a page drawn
//   for another member or none) forgets the pages kept, and the taps that waited in it are said
//   as not sent.
// - A tap that must meet the campaign as it is now (a draw, a roll, starting something:
//   `needs_connection` in campaigns/commands.py, listed on the page) is never kept: it says it
//   needs the connection. Offline, so does every form that is not a tap (undo, settings…).
(function () {
  "use strict";
  var me = document.currentScript;
  var says = me ? me.dataset : {};
  var body = document.body;
  var root = document.getElementById("live-root");
  var hooks = window.companionSwap || {};
  var member = says.member || "";
  var KEY = "companion-waiting";
  var keptAt = body.getAttribute("data-kept");  // set by the worker on a page it kept
  // The server's pace for one member's changes (COMPANION_TAPS_PER_SECOND; 0: no limit): the
  // taps that waited go one at a time, no faster, so none is refused as "too many taps".
  var rate = parseFloat(says.tapsPerSecond || "0");
  var GAP = rate > 0 ? 1000 / rate : 0;
  var LOGIN = says.login || "/login/";

  function here() { return window.location.pathname + window.location.search; }

  var worker = "serviceWorker" in navigator && window.isSecureContext && says.sw ? navigator.serviceWorker : null;
  function tell(message) {  // the worker, whether or not it controls this page yet
    if (worker) worker.ready.then(function (r) { if (r.active) r.active.postMessage(message); });
  }
  // The same, resolved once the worker has done it (or after a second: a worker that never
  // answers holds nothing up).
  function told(message) {
    if (!worker || !worker.controller) { tell(message); return Promise.resolve(); }
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function () { resolve(); };
      setTimeout(resolve, 1000);
      worker.controller.postMessage(message, [channel.port2]);
    });
  }
  if (worker) {
    // Whether a worker answered this page's own request (and so kept it). Not the same as a
    // controller: a worker that takes over while the page loads (clients.claim) controls a
    // page it never saw, which was then never kept.
    var loaded = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var first = loaded && "workerStart" in loaded ? !(loaded.workerStart > 0) : !worker.controller;
    worker.register(says.sw, { scope: "/" }).catch(function () { /* the site works without */ });
    // This page came before the worker: the worker keeps it as the phone shows it, when the
    // server marked it as one to keep (`data-keep` names the member, as the X-Companion-Keep
    // header of the pages the worker fetches does). Not asked for again: a phone's first page
    // is drawn once (campaigns/views/offline.py).
    if (first && !keptAt && says.keep) {
      worker.ready.then(function (registration) {
        if (registration.active) {
          registration.active.postMessage({ first: here(), html: snapshot(), who: says.keep, version: root ? root.dataset.version : "" });
        }
      });
    }
  }

  // Logging out forgets what this phone kept: the pages (the worker) and the taps waiting.
  document.addEventListener("submit", function (e) {
    if (e.target.matches && e.target.matches("form[data-logout]")) {
      try { window.localStorage.removeItem(KEY); } catch (err) { /* nothing kept */ }
      tell({ forgetAll: true });
    }
  }, true);

  // A message at the top of the page, for what happened away from its form (not kept with the
  // page: it was said once).
  function notice(words) {
    var note = document.createElement("p");
    note.className = "error offline-said";
    note.setAttribute("role", "alert");
    note.textContent = words;
    (document.querySelector("main") || body).prepend(note);
    return note;
  }
  // The stream says the session ended (live.js, before it reloads the page): nothing kept is
  // shown again, even offline.
  hooks.ended = function () { return told({ forgetAll: true }); };

  // --- Offline: as of HH:MM. Replaced by the current page once the server answers.
  if (keptAt) {
    var at = new Date(parseInt(keptAt, 10) || Date.now());
    var time;
    try {
      time = at.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    } catch (err) {
      time = at.toTimeString().slice(0, 5);
    }
    var note = document.createElement("p");
    note.className = "offline-note";
    note.setAttribute("role", "status");
    note.textContent = (says.offline || "Offline: as of {time}").replace("{time}", time);
    var main = document.querySelector("main") || body;
    main.prepend(note);
    var probing = false;
    var probe = function () {
      if (probing) return;
      probing = true;
      fetch(says.probe || "/manifest.webmanifest", { cache: "no-store", credentials: "same-origin" })
        .then(function () { window.location.reload(); }, function () { probing = false; });
    };
    window.addEventListener("online", probe);
    setInterval(probe, 3000);
  }

  // --- Taps that must meet the campaign as it is now.
  var needs = ((root && root.dataset.needsConnection) || "").split(" ");
  var ACTION = /\/c\/\d+\/do\/([^/]+)\/$/;
  function canWait(form) {
    var match = ACTION.exec(form.getAttribute("action") || "");
    return !!match && needs.indexOf(match[1]) < 0;
  }
  function offline() { return navigator.onLine === false || !!keptAt; }

  function mark() {
    Array.prototype.forEach.call(document.querySelectorAll("form[method=post]:not([data-needs-connection])"), function (form) {
      if (!canWait(form)) form.setAttribute("data-needs-connection", "");
    });
  }
  mark();
  document.addEventListener("companion:refreshed", mark);

  function sayNeeds(form) {
    var anchor = form;
    while (anchor.parentElement && !anchor.parentElement.hasAttribute("data-live") &&
           /flex|grid/.test(window.getComputedStyle(anchor.parentElement).display)) {
      anchor = anchor.parentElement;
    }
    var next = anchor.nextElementSibling;
    if (next && next.classList.contains("needs-connection")) return;
    var note = document.createElement("p");
    note.className = "not-sent needs-connection";
    note.setAttribute("role", "status");
    note.textContent = says.needsConnectionNote || "Needs the connection";
    anchor.after(note);
  }
  function clearNeeds() {
    Array.prototype.forEach.call(document.querySelectorAll("p.needs-connection"), function (n) { n.remove(); });
  }
  window.addEventListener("online", clearNeeds);

  // A tap on a kept page waits on the phone without trying the network: the page is replaced
  // by the current one (which sends it) as soon as the server answers.
  function newChange() {
    var phone = "";
    try { phone = window.localStorage.getItem("companion-phone") || ""; } catch (err) { /* none */ }
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    var tap = Array.prototype.map.call(bytes, function (b) { return (b % 36).toString(36); }).join("");
    return (/^[a-z0-9]{16}$/.test(phone) ? phone : tap + tap.slice(0, 4)) + "." + tap;
  }
  document.addEventListener("submit", function (e) {
    var form = e.target;
    clearNeeds();
    // A tap made while the form's last one is on its way or waits is a change of its own: it
    // is kept behind it (drain() sends it), never merged with it or dropped. (The site's own
    // resend of that last one is the same tap: live.js says so.)
    if (!form.companionAgain && canWait(form) && form.companionChange && form.matches(".htmx-request,[data-not-sent]")) {
      e.preventDefault();
      store(form, newChange(), e.submitter, Date.now());
      if (hooks.notSent) hooks.notSent(form);  // live.js: how many wait
      return;
    }
    if (!offline() || form.matches("form[data-logout]")) return;
    if (!canWait(form)) {
      e.preventDefault();
      sayNeeds(form);
    } else if (keptAt) {
      e.preventDefault();
      if (!form.companionChange) form.companionChange = newChange();
      if (answered) answered(form, 0, null);  // live.js: "Not sent"
      store(form, form.companionChange);
    }
  }, true);

  // --- Taps kept on the phone until they are sent.
  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (err) { return []; }
  }
  function save(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list.slice(-200))); } catch (err) { /* full */ }
  }
  function store(form, change, button, since) {
    if (!change || !member) return;
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && name !== "csrfmiddlewaretoken") fields.push([name, value]);
    });
    button = button || form.companionSubmitter;
    var list = load().filter(function (t) { return t.change !== change; });
    var before = load().filter(function (t) { return t.change === change; })[0];
    list.push({
      change: change, member: member, page: here(), action: form.getAttribute("action"),
      fields: fields, button: button && button.name ? [button.name, button.value] : null,
      since: (before && before.since) || since || form.companionSince || Date.now(),
      label: labelOf(form, button),
    });
    save(list);
  }
  function drop(change) {
    if (change) save(load().filter(function (t) { return t.change !== change; }));
  }
  // What the tap was, as the phone showed it: its button's label (a "+" says it aloud,
  // "Doom plus one"), else the form's first button's, else the command's name.
  function labelOf(form, button) {
    var el = button && form.contains(button) ? button : form.querySelector("button, input[type=submit]");
    var words = el ? el.getAttribute("aria-label") || el.textContent || el.value || "" : "";
    return words.replace(/\s+/g, " ").trim().slice(0, 80);
  }
  function what(tap) {
    var match = ACTION.exec(tap.action || "");
    return (says.quote || "\u201c{what}\u201d").replace("{what}", tap.label || (match ? match[1] : tap.action));
  }

  // A tap whose answer was the log-in page (the session ended): not applied. It stays on the
  // phone for the log-in page to say it was not sent.
  var leaving = false;
  hooks.left = function (form, url) {
    var path = "";
    try { path = new URL(url, window.location.href).pathname; } catch (err) { /* not a URL */ }
    if (path !== LOGIN) return;
    leaving = true;
    form.companionLeft = true;
    if (canWait(form)) store(form, form.companionChange);
    tell({ forgetAll: true });
  };

  // A tap that waited and was refused is said next to its form (live.js); should the campaign
  // then be gone from the page (its stream says so), it is said again at the page's top.
  var saidAtForm = [];
  var failed = hooks.failed;
  hooks.failed = function (form, status, reason) {
    var waited = form.hasAttribute("data-not-sent");
    if (waited && status === 429) return;  // not a refusal: it waits its turn (hooks.answered)
    if (waited && !/^50[234]$/.test(String(status))) {
      saidAtForm.push({ tap: { label: labelOf(form, form.companionSubmitter), action: form.getAttribute("action") }, status: status, reason: reason });
    }
    if (failed) failed(form, status, reason);
  };

  var answered = hooks.answered;
  hooks.answered = function (form, status, headers) {
    if (form.companionLeft || leaving) return;
    var change = form.companionChange;
    // A tap that waited, answered "too many taps": it waits its turn again (live.js).
    var busy = status === 429 && form.hasAttribute("data-not-sent");
    if (busy) later(headers);
    var failed = !status || /^50[234]$/.test(String(status)) || busy;
    if (failed && !canWait(form)) {
      // Not kept: the phone says it needs the connection. Its id stays on the form, so a tap
      // made again after all is still one change if this one arrived.
      sayNeeds(form);
      return;
    }
    if (answered) answered(form, status, headers);
    // Answered: a tap kept behind it goes next. Not answered: it waits for the next try (live.js,
    // in a few seconds), not sent again at once to a server that is not answering.
    if (failed) store(form, change); else { drop(change); drain(); }
  };

  function hidden(form) {
    var found = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=hidden][name]"), function (el) {
      if (el.name !== "csrfmiddlewaretoken" && el.name !== "version") found[el.name] = el.value;
    });
    return found;
  }
  function formOf(tap) {
    var fields = {};
    tap.fields.forEach(function (f) { if (!(f[0] in fields)) fields[f[0]] = f[1]; });
    return Array.prototype.filter.call(document.querySelectorAll("form"), function (form) {
      if (form.getAttribute("action") !== tap.action) return false;
      var own = hidden(form);
      return Object.keys(own).every(function (name) { return fields[name] === own[name]; });
    })[0] || null;
  }
  function restore(form, tap, now) {
    var values = {};
    tap.fields.forEach(function (f) { (values[f[0]] = values[f[0]] || []).push(f[1]); });
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || /^(submit|button|reset|file)$/.test(el.type)) return;
      var sent = values[el.name];
      if (el.type === "checkbox" || el.type === "radio") el.checked = !!sent && sent.indexOf(el.value) >= 0;
      else if (sent) el.value = sent[0];
    });
    if (tap.button) {
      form.companionSubmitter = Array.prototype.filter.call(form.querySelectorAll("button[name]"), function (b) {
        return b.name === tap.button[0] && b.value === tap.button[1];
      })[0] || null;
    }
    form.companionChange = tap.change;
    form.companionSince = tap.since;
    // A tap kept behind another of its form's goes now; one kept across a reload, when it can.
    if (now) { form.setAttribute("data-not-sent", ""); hooks.resend(form); } else if (answered) answered(form, 0, null);
  }
  // How many taps wait on this form (live.js says it in its note).
  hooks.waiting = function (form) {
    return 1 + load().filter(function (t) { return t.change !== form.companionChange && here() === t.page && formOf(t) === form; }).length;
  };

  var waiting = load().filter(function (t) { return t.member === member && t.page === here(); });
  waiting.sort(function (a, b) { return a.since - b.since; });
  var shown = 0, formless = {};
  waiting.forEach(function (tap) {
    var form = formOf(tap);
    // The oldest of a form's taps is on it; the others wait behind it.
    if (!form) formless[tap.change] = true;
    else if (!form.companionChange) { restore(form, tap); shown += 1; }
  });
  // Back with the connection: they go now, oldest first.
  if (shown && !offline()) window.dispatchEvent(new Event("online"));

  // Taps made on another page (the phone moved on while offline), or whose form this page no
  // longer has (removed on another phone), go from here, each once (its change id); a refusal
  // says what the tap was and why at the top of this page.
  function whyOf(status, html) {
    var parsed = new DOMParser().parseFromString(html || "", "text/html");
    if (status === 409 || status === 422) {
      return Array.prototype.map.call(parsed.querySelectorAll(".error"), function (el) {
        return el.textContent.trim();
      }).filter(Boolean).join(" ");
    }
    var reason = parsed.querySelector("[data-reason]");
    if (status === 403) return (reason && reason.textContent.trim()) || says.whyOwner || "";
    if (status === 404 || status === 410) return says.whyGone || "";
    if (status === 413) return says.whyLarge || "";
    if (status === 400) return says.whyUnread || "";
    return says.whyFailed || "";
  }
  function refused(tap, status, html, reason) {
    notice((says.refused || "{what}, made offline, was not done: {why}")
      .replace("{what}", what(tap)).replace("{why}", reason || whyOf(status, html) || String(status)));
  }
  // The taps kept that are on no form of this page now (those of other pages, those kept behind
  // another tap of their form).
  function tapsElsewhere(heads) {
    return load().filter(function (t) { return t.member === member && heads.indexOf(t.change) < 0; });
  }
  var sending = false;
  function sendElsewhere(tap) {
    // The page's token (base.html's meta tag): a form a live refresh drew holds none.
    var token = document.querySelector("meta[name=csrf-token]");
    if (!token) return;
    var data = new URLSearchParams();
    tap.fields.forEach(function (f) { data.append(f[0], f[1]); });
    if (tap.button) data.append(tap.button[0], tap.button[1]);
    data.set("change", tap.change);
    var headers = { "HX-Request": "true", "X-CSRFToken": token.content };
    sending = true;
    fetch(tap.action, { method: "POST", body: data, headers: headers, credentials: "same-origin" })
      .then(function (response) {
        var status = response.status;
        if (response.redirected) {
          // Sent to log in: the session ended. The log-in page says what was not sent.
          if (new URL(response.url).pathname === LOGIN) {
            leaving = true;
            return told({ forgetAll: true }).then(function () { window.location.assign(response.url); });
          }
          return null;  // later
        }
        if (/^50[234]$/.test(String(status))) return null;  // the server is not answering: later
        if (status === 429) { later(response.headers); return null; }  // its turn again, later
        drop(tap.change);
        if (status < 400) return null;
        return response.text().then(function (html) { refused(tap, status, html); });
      }, function () { /* still no connection: on the next "online" */ })
      .catch(function () { /* an answer the page could not read: nothing more to say */ })
      .then(function () { sending = false; drain(); });
  }

  // The taps that waited go one at a time, the oldest first, those of this page's forms (sent
  // by live.js, as the user's own tap was) and those of other pages alike, no faster than the
  // server's pace; a "too many taps" answer waits the Retry-After it gives.
  var nextAt = 0, drainTimer = null;
  function later(headers) {
    var wait = parseFloat(headers && headers.get ? headers.get("Retry-After") : "");
    wait = isNaN(wait) ? 1 : Math.min(Math.max(wait, 0), 60);
    nextAt = Math.max(nextAt, Date.now() + wait * 1000);
  }
  function drain() {
    clearTimeout(drainTimer);
    drainTimer = null;
    if (leaving || offline() || sending || document.querySelector("form[data-not-sent].htmx-request")) return;
    var heads = [];
    var forms = Array.prototype.filter.call(document.querySelectorAll("form"), function (f) {
      heads.push(f.companionChange);
      return f.companionChange && f.hasAttribute("data-not-sent");
    }).map(function (f) { return { form: f, since: f.companionSince || 0 }; });
    var taps = tapsElsewhere(heads).map(function (t) { return { tap: t, since: t.since || 0 }; });
    var next = forms.concat(taps).sort(function (a, b) { return a.since - b.since; })[0];
    if (!next) return;
    var form = next.form || (next.tap.page === here() && !formless[next.tap.change] && formOf(next.tap));
    if (form && form.companionChange && !next.form) return;  // its form's last tap goes first
    var wait = nextAt - Date.now();
    if (wait > 0) { drainTimer = setTimeout(drain, wait); return; }
    nextAt = Date.now() + GAP;
    if (next.form) hooks.resend(form); else if (form) restore(form, next.tap, 1); else sendElsewhere(next.tap);
  }
  // A page the server drew just now says whose session this is (`data-member`; none on the
  // log-in page): the pages kept for anyone else, or for a session that ended (it expired, the
  // password was changed on another device, a log out elsewhere), are forgotten, and the taps
  // that waited in it are said as not sent, never kept for another account.
  if (!keptAt) {
    tell({ member: member });
    var ended = load().filter(function (t) { return t.member !== member; });
    if (ended.length) {
      save(load().filter(function (t) { return t.member === member; }));
      notice((says.ended || "Not sent, because your session has ended: {what}")
        .replace("{what}", ended.map(what).join(" ")));
    }
  }
  hooks.drain = drain;
  drain();
  window.addEventListener("online", drain);

  // --- What the phone shows now is what it keeps: a live refresh moved the page on.
  var timer = null;
  // The page as it shows, without what belongs to this moment only (the marks of taps waiting,
  // which come back from localStorage, the wake lock's note, a message's dismiss button).
  function snapshot() {
    var copy = document.documentElement.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll(".not-sent, .keep-awake, button.dismiss, [data-held], .offline-note, .offline-said"), function (el) {
      el.remove();
    });
    Array.prototype.forEach.call(copy.querySelectorAll("form[data-not-sent], .htmx-request"), function (el) {
      el.removeAttribute("data-not-sent");  // (#live-root's data-not-sent is its message: kept)
      el.classList.remove("htmx-request");
    });
    copy.querySelector("body").removeAttribute("data-awake");
    return "<!doctype html>\n" + copy.outerHTML;
  }
  function keepShown() {
    clearTimeout(timer);
    timer = null;
    if (keptAt || !root || !worker) return;
    tell({ shown: here(), html: snapshot(), version: parseInt(root.dataset.version, 10) });
  }
  document.addEventListener("companion:refreshed", function () {
    clearTimeout(timer);
    timer = setTimeout(keepShown, 1500);
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") keepShown();
  });

  // The campaign was deleted, or this member removed: nothing of it stays on the phone.
  document.addEventListener("companion:gone", function () {
    var match = /^\/c\/(\d+)\//.exec(window.location.pathname);
    if (match) tell({ forget: match[1] });
    var of = function (t) { return !!match && t.page.indexOf("/c/" + match[1] + "/") === 0; };
    var lost = load().filter(of);
    save(load().filter(function (t) { return !of(t); }));
    saidAtForm.forEach(function (said) { refused(said.tap, said.status, "", said.reason); });
    saidAtForm = [];
    lost.forEach(function (tap) { refused(tap, 404, ""); });
  });
})();
