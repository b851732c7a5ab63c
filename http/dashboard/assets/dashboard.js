// The dashboard's only script (served from /assets; the CSP allows no inline script). Every page works without
// it; it adds: automatic submit of the time-zone picker, the copy button, the audio player's transcript sync,
// live campaign progress over Server-Sent Events, and the browser's time zone on the sign-in form.
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  function ready(fn) {
    if (document.readyState !== 'loading') fn();
    else document.addEventListener('DOMContentLoaded', fn);
  }

  ready(function () {
    // Sign-in: default the time zone to the browser's.
    var zoneField = document.querySelector('input[name="time_zone"][data-browser-zone]');
    if (zoneField) {
      try { zoneField.value = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; } catch (e) { /* keep UTC */ }
    }

    document.querySelectorAll('select[data-autosubmit]').forEach(function (select) {
      select.addEventListener('change', function () { select.form.submit(); });
    });

    document.querySelectorAll('[data-confirm]').forEach(function (form) {
      form.addEventListener('submit', function (event) {
        if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
      });
    });

    document.querySelectorAll('button[data-copy]').forEach(function (button) {
      button.addEventListener('click', function () {
        var source = document.getElementById(button.getAttribute('data-copy'));
        if (!source) return;
        var text = source.textContent || '';
        var done = function () { button.textContent = 'Copied'; };
        if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { select(source); });
        else { select(source); try { document.execCommand('copy'); done(); } catch (e) { /* selected for the user */ } }
      });
    });

    function select(node) {
      var range = document.createRange();
      range.selectNodeContents(node);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }

    // Call detail: clicking a segment seeks; the playing segment is highlighted.
    var audio = document.querySelector('audio[data-transcript]');
    if (audio) {
      var list = document.getElementById(audio.getAttribute('data-transcript'));
      var items = list ? Array.prototype.slice.call(list.querySelectorAll('li[data-start]')) : [];
      items.forEach(function (item) {
        var button = item.querySelector('button');
        if (button) button.addEventListener('click', function () {
          audio.currentTime = Number(item.getAttribute('data-start'));
          audio.play().catch(function () { /* autoplay refused: the position is set */ });
        });
      });
      // Evidence of a compliance violation (and any other `data-seek` button) seeks the same player.
      document.querySelectorAll('button[data-seek]').forEach(function (button) {
        button.addEventListener('click', function () {
          audio.currentTime = Number(button.getAttribute('data-seek'));
          audio.play().catch(function () { /* autoplay refused: the position is set */ });
        });
      });
      var playing = null;
      audio.addEventListener('timeupdate', function () {
        var t = audio.currentTime;
        var found = null;
        for (var i = 0; i < items.length; i++) {
          if (t >= Number(items[i].getAttribute('data-start')) && t < Number(items[i].getAttribute('data-end'))) { found = items[i]; break; }
        }
        if (found === playing) return;
        if (playing) playing.classList.remove('playing');
        if (found) { found.classList.add('playing'); found.scrollIntoView({ block: 'nearest' }); }
        playing = found;
      });
      var start = Number(audio.getAttribute('data-start-at') || '0');
      if (start > 0) audio.addEventListener('loadedmetadata', function () { audio.currentTime = start; }, { once: true });
    }

    // Campaign detail: live progress. The server sends the progress fragment's HTML (escaped server-side).
    var live = document.querySelector('[data-live-progress]');
    if (live && window.EventSource) {
      var shownStatus = (live.querySelector('[data-status]') || live).getAttribute('data-status');
      var retryMs = 2000;
      var connect = function () {
        var source = new EventSource(live.getAttribute('data-live-progress'));
        source.addEventListener('progress', function (event) {
          retryMs = 2000;
          live.innerHTML = event.data;
          live.setAttribute('data-updated', String(Date.now()));
          // Started, paused or resumed elsewhere (the API, another operator): the buttons of the old status go (a stale
          // "Start now" on a running campaign was refused when clicked), and a link reloads the page with the new ones.
          var now = live.querySelector('[data-status]');
          var actions = document.querySelector('main .actions');
          if (now && actions && shownStatus && now.getAttribute('data-status') !== shownStatus && !actions.hasAttribute('data-stale')) {
            actions.setAttribute('data-stale', '');
            var note = document.createElement('p');
            note.className = 'muted';
            note.appendChild(document.createTextNode('The campaign is now ' + now.getAttribute('data-status') + '. '));
            var again = document.createElement('a');
            again.href = window.location.pathname;
            again.textContent = 'Reload for its actions';
            note.appendChild(again);
            actions.replaceChildren(note);
          }
        });
        // Finished: reload once, so the page shows the final calls and only the actions still possible.
        source.addEventListener('end', function () { source.close(); window.location.reload(); });
        // Refused (429: the session's live views were all still open for a moment after quick navigation) or cut: a
        // browser gives up on a refused stream, which left the page still for good; try again, less and less often.
        source.onerror = function () {
          if (source.readyState !== EventSource.CLOSED) return;
          setTimeout(connect, retryMs);
          retryMs = Math.min(retryMs * 2, 30000);
        };
      };
      connect();
    }
  });
})();
