// topochess web chat. Everything that comes from people or the bot is put
// on the page with textContent, never as HTML.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const STORE = 'topochess';

  let me = null;        // {token, user, name, room}
  let events = null;    // EventSource
  let lastSeq = 0;
  let retryTimer = 0;
  const history = [];   // lines typed, for arrow up/down
  let historyAt = 0;

  function eventID() {
    const b = new Uint8Array(12);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  async function post(path, body) {
    const headers = { 'Content-Type': 'application/json' };
    if (me) headers['X-Session'] = me.token;
    let res;
    try {
      res = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
    } catch (e) {
      return { error: 'The server cannot be reached; is topochess still running?' };
    }
    let data = {};
    try { data = await res.json(); } catch (e) { /* not JSON: keep the status */ }
    if (res.status === 401 && data.rejoin && me) {
      // The server restarted or forgot this tab: join again, then retry once.
      if (await rejoin()) return post(path, body);
    }
    if (!res.ok && !data.error) data.error = 'The server answered ' + res.status + '.';
    return data;
  }

  // ---- joining ----

  // The secrets of the names this browser took: joining as one again
  // needs it (the server keeps only a hash).
  const SECRETS = 'topochess-names';
  const nameKey = (name) => String(name).trim().replace(/^@/, '').normalize('NFKC').toLowerCase();

  async function join(name, room) {
    me = null;
    const secrets = JSON.parse(localStorage.getItem(SECRETS) || '{}');
    const data = await post('/api/join', { name, room, secret: secrets[nameKey(name)] || '' });
    if (data.error) return data.error;
    if (data.secret) {
      secrets[nameKey(name)] = data.secret;
      localStorage.setItem(SECRETS, JSON.stringify(secrets));
      delete data.secret;
    }
    me = data;
    sessionStorage.setItem(STORE, JSON.stringify(me));
    return '';
  }

  async function rejoin() {
    const saved = me;
    const err = await join(saved.name, saved.room);
    if (err) { me = saved; return false; }
    lastSeq = 0;
    $('log').replaceChildren();
    connect();
    return true;
  }

  function showChat() {
    $('join').hidden = true;
    $('chat').hidden = false;
    $('where').hidden = false;
    $('leave').hidden = false;
    $('room-name').textContent = me.room;
    $('me-name').textContent = me.name;
    document.title = 'topochess · ' + me.room;
    $('line').focus();
  }

  function showJoin() {
    if (events) events.close();
    events = null;
    me = null;
    sessionStorage.removeItem(STORE);
    $('log').replaceChildren();
    lastSeq = 0;
    $('chat').hidden = true;
    $('where').hidden = true;
    $('leave').hidden = true;
    $('status').hidden = true;
    $('join').hidden = false;
    document.title = 'topochess';
    $('join-name').focus();
  }

  $('join').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const err = await join($('join-name').value, $('join-room').value);
    const box = $('join-error');
    box.hidden = !err;
    box.textContent = err;
    if (err) return;
    lastSeq = 0;
    $('log').replaceChildren();
    showChat();
    connect();
  });

  $('leave').addEventListener('click', showJoin);

  // ---- live events ----

  function setStatus(text) {
    const s = $('status');
    s.hidden = !text;
    s.textContent = text;
  }

  function connect() {
    if (events) events.close();
    clearTimeout(retryTimer);
    const url = '/api/events?s=' + encodeURIComponent(me.token) + '&since=' + lastSeq;
    events = new EventSource(url);
    events.onopen = () => setStatus('');
    events.onmessage = (m) => {
      const e = JSON.parse(m.data);
      if (e.seq <= lastSeq) return;
      lastSeq = e.seq;
      show(e);
    };
    events.onerror = () => {
      setStatus('reconnecting…');
      if (events.readyState === EventSource.CLOSED) {
        // EventSource gives up on an error status (the session is gone
        // after a restart): join again after a pause.
        retryTimer = setTimeout(async () => {
          if (me && !(await rejoin())) connect();
        }, 1500);
      }
    };
  }

  function nearBottom() {
    const d = document.scrollingElement;
    return d.scrollHeight - d.scrollTop - d.clientHeight < 120;
  }

  function scrollDown() {
    const d = document.scrollingElement;
    d.scrollTop = d.scrollHeight;
  }

  function show(e) {
    if (e.kind === 'stale') {
      for (const key of e.stale || []) {
        for (const m of document.querySelectorAll('#log li[data-key]')) {
          if (m.dataset.key !== key) continue;
          m.classList.add('stale');
          for (const b of m.querySelectorAll('.buttons button')) b.disabled = true;
        }
      }
      return;
    }
    if (e.kind === 'edit') {
      // The newest message with the key gets the new text.
      const ms = [...document.querySelectorAll('#log li[data-key]')].filter((m) => m.dataset.key === e.key);
      const t = ms.length ? ms[ms.length - 1].querySelector('.text') : null;
      if (t) t.textContent = e.text;
      return;
    }
    const stick = nearBottom();
    const li = el('li', 'msg ' + e.kind);
    if (e.error) li.classList.add('error');
    if (e.private) li.classList.add('private');
    if (e.key) li.dataset.key = e.key;
    if ((e.mentions || []).includes(me.user)) {
      li.classList.add('mention');
      if (document.hidden) document.title = '● topochess · ' + me.room;
    }
    const head = el('div', 'head');
    head.append(el('span', 'who', e.kind === 'reply' ? 'topochess' : e.from));
    if (e.private) head.append(el('span', 'tag', 'only you'));
    head.append(el('time', 'at', new Date(e.time).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })));
    li.append(head);
    if (e.text) li.append(el('div', e.kind === 'said' ? 'text cmd' : 'text', e.text));
    if (e.image) li.append(picture(e.image, stick));
    if (e.buttons && e.buttons.length) li.append(buttons(e.buttons));
    $('log').append(li);
    if (stick) scrollDown();
  }

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && me) document.title = 'topochess · ' + me.room;
  });

  function picture(img, stick) {
    const fig = el('figure', 'board');
    const i = el('img');
    i.src = img.url;
    i.alt = img.alt || 'board';
    i.title = img.alt || '';
    if (img.w && img.h) { i.width = img.w; i.height = img.h; }
    i.dataset.image = img.id;
    if (stick) i.addEventListener('load', scrollDown, { once: true });
    if (img.board) {
      i.classList.add('clickable');
      i.addEventListener('click', (ev) => clickBoard(i, ev));
    } else {
      i.addEventListener('click', () => enlarge(i));
    }
    // A click on a board picks a cell, so enlarging has its own control.
    const big = el('button', 'enlarge', '⤢ full size');
    big.type = 'button';
    big.title = 'Show full size (pinch or scroll to zoom)';
    big.setAttribute('aria-label', 'Show the picture full size');
    big.addEventListener('click', () => enlarge(i));
    fig.append(i, big);
    return fig;
  }

  // ---- full-size view ----

  function enlarge(img) {
    const z = $('zoom');
    const big = $('zoom-img');
    big.src = img.src;
    big.alt = img.alt;
    big.style.width = '';
    z.classList.remove('fit');
    z.hidden = false;
    $('zoom-close').focus();
  }

  function closeZoom() {
    $('zoom').hidden = true;
    $('zoom-img').removeAttribute('src');
    pinch = null;
  }

  // Two fingers on the full-size view zoom the picture itself, not the
  // page: a zoomed page would stay zoomed after the view closes, and the
  // close control, fixed to the page, would drift off the screen.
  let pinch = null;
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  $('zoom').addEventListener('touchstart', (ev) => {
    if (ev.touches.length !== 2) return;
    ev.preventDefault();
    const r = $('zoom-img').getBoundingClientRect();
    const mx = (ev.touches[0].clientX + ev.touches[1].clientX) / 2;
    const my = (ev.touches[0].clientY + ev.touches[1].clientY) / 2;
    // fx, fy: the point of the picture between the fingers, which stays there.
    pinch = { d: spread(ev.touches), w: r.width, fx: (mx - r.left) / r.width, fy: (my - r.top) / r.height, mx, my };
  }, { passive: false });
  $('zoom').addEventListener('touchmove', (ev) => {
    if (!pinch || ev.touches.length !== 2) return;
    ev.preventDefault();
    const z = $('zoom'), img = $('zoom-img');
    const w = Math.min(Math.max(pinch.w * spread(ev.touches) / pinch.d, z.clientWidth / 2), img.naturalWidth * 4);
    z.classList.remove('fit');
    img.style.width = w + 'px';
    const r = img.getBoundingClientRect();
    z.scrollLeft += r.left + pinch.fx * r.width - pinch.mx;
    z.scrollTop += r.top + pinch.fy * r.height - pinch.my;
  }, { passive: false });
  $('zoom').addEventListener('touchend', (ev) => { if (ev.touches.length < 2) pinch = null; });

  $('zoom-close').addEventListener('click', closeZoom);
  // A tap on the picture switches between full size and fitting the
  // screen; a tap beside it closes the view.
  $('zoom-img').addEventListener('click', () => {
    $('zoom-img').style.width = '';
    $('zoom').classList.toggle('fit');
  });
  $('zoom').addEventListener('click', (ev) => { if (ev.target === $('zoom')) closeZoom(); });
  document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && !$('zoom').hidden) closeZoom(); });

  function buttons(list) {
    const row = el('div', 'buttons');
    for (const b of list) {
      const btn = el('button', b.style || 'secondary', b.label);
      btn.type = 'button';
      btn.dataset.button = b.id;
      if (b.for && b.for !== me.user) {
        btn.disabled = true;
        btn.title = 'for ' + b.for.replace(/^web:/, '');
      }
      btn.addEventListener('click', async () => {
        const res = await post('/api/press', { button: b.id, event: eventID() });
        if (res.error) note(res.error, true);
      });
      row.append(btn);
    }
    return row;
  }

  // note shows a line from this page itself (the adapter refused).
  function note(text, isError) {
    show({ kind: 'note', from: 'topochess', text, error: isError, private: true, time: Date.now(), seq: 0 });
  }

  // ---- board clicks ----

  function setHint(cell, text) {
    $('hint').hidden = !cell && !text;
    $('hint-clear').hidden = !cell;
    $('hint-text').textContent = cell
      ? 'Selected ' + cell + ': tap or click where it should go (or ' + cell + ' again to cancel).'
      : (text || '');
  }

  let lastBoard = null;

  // Cell maps of board pictures (render.CellMap, in the picture's own
  // pixels), fetched once per picture.
  const maps = new Map();

  async function cellMap(id) {
    if (maps.has(id)) return maps.get(id);
    let m = null;
    try {
      const res = await fetch('/api/map/' + encodeURIComponent(id));
      if (res.ok) m = await res.json();
    } catch (e) { /* no map: the server looks the point up instead */ }
    if (m) maps.set(id, m);
    return m;
  }

  function inPolygon(p, x, y) {
    let inside = false;
    for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
      const [xi, yi] = p[i], [xj, yj] = p[j];
      if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  function cellAt(m, x, y) {
    for (const c of m.cells) {
      if (c.polygons.some((p) => inPolygon(p, x, y))) return c.cell;
    }
    return '';
  }

  async function clickBoard(img, ev) {
    const r = img.getBoundingClientRect();
    // The map is in pixels of the picture as drawn, so scale the click
    // from the shown size to the picture's own size.
    const x = (ev.clientX - r.left) * img.naturalWidth / r.width;
    const y = (ev.clientY - r.top) * img.naturalHeight / r.height;
    lastBoard = img;
    const m = await cellMap(img.dataset.image);
    const body = { image: img.dataset.image, x, y, event: eventID() };
    if (m) {
      body.cell = cellAt(m, x, y);
      if (!body.cell) { setHint('', 'That is not a cell; nothing is selected.'); return; }
    }
    const res = await post('/api/click', body);
    if (res.error) { setHint('', ''); note(res.error, true); return; }
    setHint(res.selected, res.note);
  }

  $('hint-clear').addEventListener('click', async () => {
    setHint('', '');
    if (!lastBoard) return;
    const res = await post('/api/click', { image: lastBoard.dataset.image, clear: true });
    if (res.error) note(res.error, true);
    lastBoard = null;
  });

  // ---- typing ----

  async function send(text) {
    const res = await post('/api/send', { text, event: eventID() });
    if (res.error) note(res.error, true);
  }

  $('say').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const line = $('line').value.trim();
    if (!line) return;
    history.push(line);
    historyAt = history.length;
    $('line').value = '';
    send(line);
  });

  $('line').addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowUp' && historyAt > 0) {
      historyAt--;
    } else if (ev.key === 'ArrowDown' && historyAt < history.length) {
      historyAt++;
    } else {
      return;
    }
    ev.preventDefault();
    $('line').value = history[historyAt] || '';
  });

  for (const b of document.querySelectorAll('#quick button[data-cmd]')) {
    b.addEventListener('click', () => send(b.dataset.cmd));
  }

  // ---- start ----

  const saved = JSON.parse(sessionStorage.getItem(STORE) || 'null');
  if (saved && saved.token) {
    me = saved;
    $('join-name').value = saved.name;
    $('join-room').value = saved.room;
    showChat();
    connect();
  } else {
    showJoin();
  }
})();
