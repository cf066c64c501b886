/* The trackers' sand-timers (campaigns/trackers/timer.py): the server stores when a timer
   started and for how long; each phone, and the table display, counts down from that by
   itself, and at the end rings and vibrates where the phone allows. A page redrawn live brings
   new [data-timer] elements, so each tick looks them up again. */
(function () {
  "use strict";
  var audio = null, ended = {};
  function unlock() {
    // Browsers play sound only after a tap on the page: the first tap makes the audio ready.
    try {
      if (!audio) {
        var Context = window.AudioContext || window.webkitAudioContext;
        if (Context) audio = new Context();
      }
      if (audio && audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlock, true);
  function ring() {
    if (navigator.vibrate) { try { navigator.vibrate([300, 120, 300, 120, 300]); } catch (e) {} }
    if (!audio) return;
    try {
      [0, 0.35, 0.7].forEach(function (at) {
        var tone = audio.createOscillator(), gain = audio.createGain();
        tone.frequency.value = 880; gain.gain.value = 0.2;
        tone.connect(gain); gain.connect(audio.destination);
        tone.start(audio.currentTime + at); tone.stop(audio.currentTime + at + 0.2);
      });
    } catch (e) {}
  }
  function clock(seconds) {
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-timer][data-ends]").forEach(function (timer) {
      var ends = +timer.getAttribute("data-ends");
      var left = Math.max(0, Math.ceil((ends - now) / 1000));
      var value = timer.querySelector(".value");
      var text = left > 0 ? clock(left) : timer.getAttribute("data-done");
      if (value && value.textContent !== text) value.textContent = text;
      timer.classList.toggle("done", left === 0);
      timer.classList.toggle("running", left > 0);
      // Ring once, when the end is seen as it comes (not on opening a page long after it).
      if (left === 0 && !ended[ends]) {
        ended[ends] = true;
        if (now - ends < 5000) ring();
      }
    });
  }
  setInterval(tick, 250);
  tick();
})();
