// Companion's forms, sent without leaving the page: the small part of htmx 2 the site uses,
// written out here. htmx 2 alone was 16 KB gzip of the 22 KB a phone may download on its first
// load of a page (issue 8); this is a tenth of that. It speaks htmx's attributes and headers, so
// the templates and the server (django-htmx's request.htmx, reselect, retarget, reswap) are as
// they were, and without JavaScript every form still posts and redirects.
//
// A form with hx-post (or a submit button with its own) or hx-get is sent with fetch and the
// header HX-Request; the server answers with the regions the change redrew
// (campaigns/views/render.py). The answer replaces:
// - where: the response header HX-Retarget, else hx-target on the form or its nearest ancestor
//   with one ("this": that ancestor), else the form itself;
// - how: HX-Reswap, else hx-swap: innerHTML (htmx's default), outerHTML, delete or none;
// - with what: the answer's elements matching HX-Reselect, else hx-select, else all of it;
// - and out of band: each element of the answer marked hx-swap-oob replaces the page's element
//   with the same id (live.js first decides whether a region should wait, see `hooks.oob`).
// Which answers are shown (what the site's htmx-config said): none for 204; 2xx, and 409 and
// 422, the refusals that come back with the form and its errors; any other status is an error
// and changes nothing on the page (what was typed stays): live.js says what happened next to
// the form (`hooks.failed`), with the reason the answer gives in its [data-reason] element (a
// 403's "Only the owner can do that."). An answer the fetch reached through a redirect (a login
// page, say) is a page, not a region: the phone goes there.
//
// What htmx did and this does not, because no page needs it: other triggers than a form's
// submit, hx-vals, hx-include, hx-confirm, extended selectors, swap modifiers, settling
// transitions (the htmx-added and htmx-settling classes), history snapshots (htmx kept none
// either: historyCacheSize 0, so going back loads the page again, as here), queueing a second
// submit of a form whose first is still on its way (here it is dropped: a double tap is one tap).
(function () {
  "use strict";
  // live.js plugs into these, each optional (on pages without live regions there are none):
  //   before(elt)                   a form (or button) is about to be sent
  //   configure(form, data)         a POST's FormData, before it is sent (the change id goes in)
  //   oob(old, next)                false: the page keeps `old` (live.js swapped it itself, or
  //                                 the user is typing there)
  //   failed(form, status, reason)  an error answer (403, 404, 429, 5xx): nothing was swapped
  //   swapped(status)               the answer is on the page
  //   settled(elements)             ... and laid out: the elements it brought
  //   answered(form, status, headers)  status 0: no answer (offline, timed out, cut)
  //   left(form, url)               the answer came through a redirect: the phone goes there
  var hooks = window.companionSwap = {};
  function call(name, a, b, c) {
    return hooks[name] ? hooks[name](a, b, c) : undefined;
  }
  function parse(text) {
    var parsed = document.createElement("template");
    parsed.innerHTML = text;
    return parsed.content;
  }
  var list = function (nodes) { return Array.prototype.slice.call(nodes); };
  // The control that took the place of `old` (redrawn): the same id, or, for a field without
  // one, the same name (a button also its value) in a form with the same action.
  var sameControl = function (old, added) {
    if (old.id) return document.getElementById(old.id);
    if (!old.name || !old.form) return null;
    var action = old.form.getAttribute("action"), found = [];
    added.forEach(function (root) {
      list(root.querySelectorAll(old.tagName)).forEach(function (el) {
        if (el.name === old.name && el.form && el.form.getAttribute("action") === action &&
            (old.tagName !== "BUTTON" || el.value === old.value)) found.push(el);
      });
    });
    return found.length === 1 ? found[0] : null;
  };

  // An attribute as htmx inherits it: from the element or its nearest ancestor carrying it.
  function inherited(elt, name) {
    var from = elt.closest("[" + name + "]");
    return from && from.getAttribute(name);
  }

  function targetOf(elt, retarget) {
    if (retarget) return document.querySelector(retarget);
    var from = elt.closest("[hx-target]");
    if (!from) return elt;
    var selector = from.getAttribute("hx-target");
    return selector === "this" ? from : document.querySelector(selector);
  }

  // The address this document shows: a search's pushed ?q=… included.
  var shown = location.pathname + location.search;
  window.addEventListener("popstate", function () {
    // Back (or forward) to an address a form pushed: the page is loaded again for it.
    if (location.pathname + location.search !== shown) location.reload();
  });

  document.addEventListener("submit", function (e) {
    var form = e.target, button = e.submitter;
    var elt = button && button.hasAttribute("hx-post") ? button : form;
    var verb = elt.hasAttribute("hx-post") ? "post" : elt.hasAttribute("hx-get") ? "get" : "";
    if (!verb || e.defaultPrevented) return;
    e.preventDefault();
    // One at a time: a second tap while the first is on its way is not a second change.
    if (form.classList.contains("htmx-request")) return;
    var data = new FormData(form);
    // The button tapped goes along, as in a plain submit (FormData's submitter argument is
    // too new for some phones).
    if (button && button.name) data.append(button.name, button.value);
    send(form, elt, verb, elt.getAttribute("hx-" + verb), data);
  });

  // The phone's CSRF token, once in the page (base.html's meta tag): a page drawn to be shared
  // by every phone (a live refresh, a pushed page) holds none in its forms, and Django reads
  // this header when a form's field is empty (settings.CSRF_HEADER_NAME).
  function requestHeaders() {
    var meta = document.querySelector("meta[name=csrf-token]");
    var headers = { "HX-Request": "true" };
    if (meta && meta.content) headers["X-CSRFToken"] = meta.content;
    return headers;
  }

  function send(form, elt, verb, url, data) {
    call("before", elt);
    form.classList.add("htmx-request");  // site.css dims it; live.js leaves its region alone
    var body = null;
    if (verb === "post") {
      call("configure", form, data);
      body = form.enctype === "multipart/form-data" ? data : new URLSearchParams(data);
    } else {
      url += (url.indexOf("?") < 0 ? "?" : "&") + new URLSearchParams(data);
    }
    var stop = new AbortController();
    var timer = setTimeout(function () { stop.abort(); }, 20000);
    var status = 0, headers = null;
    fetch(url, {
      method: verb.toUpperCase(),
      body: body,
      headers: requestHeaders(),
      credentials: "same-origin",
      signal: stop.signal,
    }).then(function (response) {
      return response.text().then(function (text) {
        status = response.status;
        headers = response.headers;
        show(form, elt, verb, url, response, text);
      });
    }).catch(function (err) {
      if (status) window.console.error(err);  // answered, and the page could not show it
    }).then(function () {
      clearTimeout(timer);
      form.classList.remove("htmx-request");
      call("answered", form, status, headers);
    });
  }

  function show(form, elt, verb, url, response, text) {
    var status = response.status;
    if (response.redirected) { call("left", form, response.url); location.assign(response.url); return; }
    if (status === 204) return;
    if (status >= 400 && status !== 409 && status !== 422) {
      var reason = /^text\/html/.test(response.headers.get("Content-Type") || "") &&
        parse(text).querySelector("[data-reason]");
      call("failed", form, status, reason ? reason.textContent.trim() : "");
      return;
    }
    var header = function (name) { return response.headers.get(name); };
    var target = targetOf(elt, header("HX-Retarget"));
    var how = header("HX-Reswap") || inherited(elt, "hx-swap") || "innerHTML";
    var select = header("HX-Reselect") || inherited(elt, "hx-select");
    var answer = parse(text);
    // The field the user is in keeps the focus (and the caret) when it is redrawn.
    var active = document.activeElement, start = null, end = null;
    try { start = active.selectionStart; end = active.selectionEnd; } catch (err) { /* no caret */ }
    var added = [];

    // Out of band first, as htmx did, so the main answer's selector sees only its own part.
    list(answer.querySelectorAll("[hx-swap-oob]")).forEach(function (next) {
      next.remove();
      next.removeAttribute("hx-swap-oob");
      var old = next.id && document.getElementById(next.id);
      if (old && call("oob", old, next) !== false) {
        old.replaceWith(next);
        added.push(next);
      }
    });

    var nodes = list(select ? answer.querySelectorAll(select) : answer.childNodes);
    if (how === "delete") {
      if (target) target.remove();
    } else if (target && how !== "none" && nodes.length) {
      // An answer with nothing to show (its selector found nothing) leaves the page as it is.
      if (how === "outerHTML") target.replaceWith.apply(target, nodes);
      else target.replaceChildren.apply(target, nodes);
      added = added.concat(nodes.filter(function (n) { return n.nodeType === 1; }));
    }

    if (active && active !== document.body && !active.isConnected) {
      var again = sameControl(active, added);
      if (again) {
        try { if (start !== null) again.setSelectionRange(start, end); } catch (err) { /* number */ }
        again.focus({ preventScroll: true });
      }
    }
    if (verb === "get" && inherited(elt, "hx-push-url") === "true") {
      history.pushState(null, "", url);
      shown = location.pathname + location.search;
    }
    // A refusal is said next to its field (campaigns/error.html): in a form longer than the
    // screen, tapped at its foot, that can be off the top, and the tap would seem to do nothing.
    if (status === 409 || status === 422) reveal(added);
    call("swapped", status);
    call("settled", added);
  }

  // The first message the answer brought (highest on the page), scrolled into view if it is not.
  function reveal(added) {
    var first = null;
    added.forEach(function (root) {
      var found = root.matches(".error[role=alert]") ? [root] :
        list(root.querySelectorAll(".error[role=alert]"));
      found.forEach(function (el) {
        if (!first || el.getBoundingClientRect().top < first.getBoundingClientRect().top) first = el;
      });
    });
    if (!first) return;
    var box = first.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) first.scrollIntoView({ block: "center" });
  }
})();
