// flashclaim admin console: lists, creates and changes campaigns, adds codes (a file or generated),
// pauses and resumes sales, audits, exports claims and looks up users and codes, all through the
// admin API (/v1/admin/...) with the admin token of this tab. Every error shows the problem+json
// title and detail the service answered.
'use strict';

const TOKEN_KEY = 'flashclaim.admin.token';
const DASHBOARD_TOKEN_KEY = 'flashclaim.dashboard.token'; // the live dashboard's sign-in, same tab
const PAGE_SIZE = 20;
const ADMIN = '/v1/admin/campaigns';
const MERGE_PATCH = 'application/merge-patch+json';

const $ = (id) => document.getElementById(id);
const number = (n) => (n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US'));
const instant = (iso) => iso || '–';

let current = null;    // the campaign shown: {view, etag}
let next = null;       // the cursor of the list's next page, null on its last
let importId = null;   // the Import-Id of the chosen file; kept for a retry after a failure

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

function campaignPath(id, rest) {
  return ADMIN + '/' + encodeURIComponent(id) + (rest || '');
}

/**
 * Calls the service with the admin token; never throws: a network failure is status 0. The body
 * is parsed when it is JSON (problems included), else kept as text.
 */
async function call(method, path, options) {
  const o = options || {};
  const headers = Object.assign(
    { Authorization: 'Bearer ' + (o.token || token()), Accept: 'application/json' }, o.headers || {});
  let response;
  try {
    response = await fetch(path, { method, headers, body: o.body, cache: 'no-store' });
  } catch (e) {
    return { status: 0, body: null, header: () => null };
  }
  return { status: response.status, body: await bodyOf(response), header: (n) => response.headers.get(n) };
}

async function bodyOf(response) {
  const type = response.headers.get('Content-Type') || '';
  try {
    return /json/.test(type) ? await response.json() : await response.text();
  } catch (e) {
    return null;
  }
}

/** "Title (status): detail" of a problem+json answer, with a hint where one helps. */
function problemText(answer) {
  if (answer.status === 0) {
    return 'The service could not be reached. Check the network and try again.';
  }
  const p = answer.body && typeof answer.body === 'object' ? answer.body : {};
  let text = (p.title || 'HTTP ' + answer.status) + ' (' + answer.status + ')';
  if (p.detail) {
    text += ': ' + p.detail;
  }
  const retryAfter = answer.header('Retry-After');
  if (answer.status === 401) {
    text += '. Sign in again with a valid admin token.';
  } else if (answer.status === 403 && (p.type || '').endsWith(':forbidden')) {
    text += '. This token has no admin role.';
  } else if (answer.status === 412) {
    text += '. Press Refresh to see the campaign as it is now, then change it again.';
  } else if (retryAfter) {
    text += '. Try again in ' + retryAfter + ' s.';
  }
  return text;
}

function showError(message) {
  showMessage('error', 'notice', message);
}

function showNotice(message) {
  showMessage('notice', 'error', message);
}

/**
 * Shows one message in the bar that stays at the top of the window, hiding the other. Scrolling
 * to a control (a keyboard's Tab, a link to a part of the page) keeps the control below the bar.
 */
function showMessage(id, other, message) {
  $(id).textContent = message || '';
  $(id).hidden = !message;
  if (message) {
    $(other).hidden = true;
  }
  document.documentElement.style.scrollPaddingTop = $('messages').offsetHeight + 8 + 'px';
}

function clearMessages() {
  showError('');
  showNotice('');
}

/** Shows an answer that is not a success; a 401 signs out, as the token is of no use any more. */
function fail(answer) {
  if (answer.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    showSignIn(problemText(answer));
  } else {
    showError(problemText(answer));
  }
}

/** Runs an action with its button disabled, so that a double click sends it once. */
async function busy(button, action) {
  button.disabled = true;
  try {
    await action();
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ sign-in

/** The token's subject (or e-mail), read for display only: the service checks the token. */
function whoIs(jwt) {
  try {
    const payload = JSON.parse(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    return payload.email || payload.sub || '';
  } catch (e) {
    return '';
  }
}

function showSignIn(message) {
  $('app').hidden = true;
  $('sign-out').hidden = true;
  $('signed-in-as').hidden = true;
  $('sign-in-panel').hidden = false;
  showError(message || '');
}

function showApp() {
  $('sign-in-panel').hidden = true;
  $('sign-out').hidden = false;
  $('signed-in-as').textContent = 'Signed in as ' + (whoIs(token()) || 'an admin');
  $('signed-in-as').hidden = false;
  $('app').hidden = false;
}

async function signIn(event) {
  event.preventDefault();
  const candidate = $('token').value.trim().replace(/^Bearer\s+/i, '');
  const answer = candidate ? await call('GET', ADMIN + '?limit=' + PAGE_SIZE, { token: candidate }) : null;
  if (!answer || answer.status !== 200) {
    showError(answer ? problemText(answer) : 'Paste an admin token first.');
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, candidate);
  $('token').value = '';
  clearMessages();
  showApp();
  renderList(answer.body, false);
  openFromAddress();
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  current = null;
  $('campaign-panel').hidden = true;
  $('campaign-rows').textContent = '';
  showNotice('');
  showSignIn('');
}

// ------------------------------------------------------------------ the list

async function loadList(more) {
  if (more && !next) {
    return;
  }
  const answer = await call('GET', ADMIN + '?limit=' + PAGE_SIZE
    + (more && next ? '&cursor=' + encodeURIComponent(next) : ''));
  if (answer.status !== 200) {
    fail(answer);
    return;
  }
  renderList(answer.body, more);
}

function renderList(page, append) {
  const rows = $('campaign-rows');
  if (!append) {
    rows.textContent = '';
  }
  for (const c of page.campaigns) {
    rows.appendChild(campaignRow(c));
  }
  next = page.next || null;
  $('more').hidden = !next;
  $('campaigns-empty').hidden = rows.children.length > 0;
}

function campaignRow(c) {
  const row = document.createElement('tr');
  row.dataset.id = c.id;
  const link = document.createElement('a');
  link.href = '#campaign=' + encodeURIComponent(c.id);
  link.textContent = c.id;
  const status = document.createElement('span');
  status.className = 'badge ' + c.status;
  status.textContent = c.status;
  const cells = [link, c.name, status, number(c.stock.total), number(c.stock.assigned),
    number(c.stock.remaining), number(c.perUserLimit), instant(c.startsAt), instant(c.endsAt)];
  cells.forEach((content, i) => {
    const cell = document.createElement('td');
    if (i >= 3 && i <= 6) {
      cell.className = 'num';
    }
    cell.append(content);
    row.appendChild(cell);
  });
  return row;
}

/** Puts a campaign's new view into its row of the list, if the list shows it. */
function updateRow(view) {
  for (const row of $('campaign-rows').children) {
    if (row.dataset.id === view.id) {
      row.replaceWith(campaignRow(view));
      return;
    }
  }
}

async function create(event) {
  event.preventDefault();
  clearMessages();
  const body = {
    id: $('create-id').value.trim(),
    name: $('create-name').value.trim(),
    perUserLimit: Number($('create-limit').value),
  };
  const startsAt = $('create-starts').value.trim();
  const endsAt = $('create-ends').value.trim();
  if (startsAt) {
    body.startsAt = startsAt;
  }
  if (endsAt) {
    body.endsAt = endsAt;
  }
  const answer = await call('POST', ADMIN,
    { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  if (answer.status !== 201) {
    fail(answer);
    return;
  }
  $('create-form').reset();
  $('create-panel').open = false;
  showNotice('Created campaign "' + answer.body.id + '".');
  await loadList(false);
  show(answer.body, answer.header('ETag'), true);
}

// ------------------------------------------------------------------ one campaign

function openFromAddress() {
  const id = decodeURIComponent((location.hash.match(/campaign=([^&]*)/) || [])[1] || '');
  if (id && token()) {
    open(id, true);
  }
}

async function open(id, focus) {
  const answer = await call('GET', campaignPath(id));
  if (answer.status !== 200) {
    fail(answer);
    return;
  }
  show(answer.body, answer.header('ETag'), focus);
}

async function refresh() {
  if (current) {
    await open(current.view.id, false);
  }
}

/** Shows a campaign as the service answered it, with its ETag (for If-Match). */
function show(view, etag, focus) {
  const changed = !current || current.view.id !== view.id;
  current = { view, etag };
  if (location.hash !== '#campaign=' + encodeURIComponent(view.id)) {
    history.replaceState(null, '', '#campaign=' + encodeURIComponent(view.id));
  }
  $('c-name').textContent = view.name;
  $('c-id').textContent = view.id;
  $('c-status').textContent = view.status;
  $('c-status').className = 'badge ' + view.status;
  $('c-total').textContent = number(view.stock.total);
  $('c-assigned').textContent = number(view.stock.assigned);
  $('c-remaining').textContent = number(view.stock.remaining);
  $('c-limit').textContent = number(view.perUserLimit);
  $('c-starts').textContent = view.startsAt || 'at once';
  $('c-ends').textContent = view.endsAt || 'never';
  $('c-created').textContent = view.createdAt;
  $('c-version').textContent = view.version;
  $('c-read').textContent = new Date().toLocaleTimeString();
  $('pause').hidden = view.paused;
  $('resume').hidden = !view.paused;
  $('dashboard-link').href = '/dashboard/#campaign=' + encodeURIComponent(view.id);
  $('edit-name').value = view.name;
  $('edit-limit').value = view.perUserLimit;
  $('edit-starts').value = view.startsAt || '';
  $('edit-ends').value = view.endsAt || '';
  $('edit-reopen').checked = false;
  if (changed) {
    $('audit-result').hidden = true;
    $('upload-report').hidden = true;
    $('lookup-result').hidden = true;
    $('export-result').textContent = '';
    $('generate-result').textContent = '';
    $('upload-status').textContent = '';
    $('upload-progress').value = 0;
  }
  updateRow(view);
  $('campaign-panel').hidden = false;
  if (focus) {
    $('campaign-heading').focus();
  }
}

/** Sends a merge patch; with {@code ifMatch}, only if the campaign is still at that version. */
async function patch(members, ifMatch) {
  const headers = { 'Content-Type': MERGE_PATCH };
  if (ifMatch) {
    headers['If-Match'] = ifMatch;
  }
  const answer = await call('PATCH', campaignPath(current.view.id),
    { body: JSON.stringify(members), headers });
  if (answer.status !== 200) {
    fail(answer);
    return null;
  }
  show(answer.body, answer.header('ETag'), false);
  return answer.body;
}

/** Whether two instants given as text differ (equal when they name the same moment). */
function differs(typed, stored) {
  if (!typed || !stored) {
    return Boolean(typed) !== Boolean(stored);
  }
  const a = Date.parse(typed);
  const b = Date.parse(stored);
  return Number.isNaN(a) || a !== b;
}

async function save(event) {
  event.preventDefault();
  clearMessages();
  const view = current.view;
  const members = {};
  const name = $('edit-name').value.trim();
  const limit = Number($('edit-limit').value);
  const startsAt = $('edit-starts').value.trim();
  const endsAt = $('edit-ends').value.trim();
  if (name !== view.name) {
    members.name = name;
  }
  if (limit !== view.perUserLimit) {
    members.perUserLimit = limit;
  }
  if (differs(startsAt, view.startsAt)) {
    members.startsAt = startsAt || null;
  }
  if (differs(endsAt, view.endsAt)) {
    members.endsAt = endsAt || null;
  }
  if (!Object.keys(members).length) {
    showNotice('Nothing to save: no field was changed.');
    return;
  }
  if ($('edit-reopen').checked) {
    members.reopen = true;
  }
  const saved = await patch(members, current.etag);
  if (saved) {
    showNotice('Saved: "' + saved.id + '" is at version ' + saved.version + '.');
  }
}

async function setPaused(paused) {
  clearMessages();
  const saved = await patch({ paused });
  if (saved) {
    showNotice(paused
      ? 'Paused: every instance refuses claims of "' + saved.id + '" (403 campaign-paused) within a second or two.'
      : 'Resumed: "' + saved.id + '" is ' + saved.status + '.');
    (paused ? $('resume') : $('pause')).focus();
  }
}

// ------------------------------------------------------------------ codes

async function generate(event) {
  event.preventDefault();
  clearMessages();
  const request = { count: Number($('generate-count').value) };
  const prefix = $('generate-prefix').value.trim();
  if (prefix) {
    request.prefix = prefix;
  }
  $('generate-result').textContent = 'Generating…';
  const answer = await call('POST', campaignPath(current.view.id, '/coupons'),
    { body: JSON.stringify({ generate: request }), headers: { 'Content-Type': 'application/json' } });
  if (answer.status !== 200) {
    $('generate-result').textContent = '';
    fail(answer);
    return;
  }
  $('generate-result').textContent = 'Added ' + number(answer.body.added) + ' codes, skipped '
    + number(answer.body.skipped) + '.';
  await refresh();
}

/** A random id (UUID form) that names one upload of one file, the same for its retries. */
function newImportId() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

function fileType(file) {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv' ? 'text/csv' : 'text/plain';
}

/**
 * Sends the file as the body, as it is read from disk: XMLHttpRequest, because fetch tells
 * nothing of an upload's progress. The Import-Id stays the same when the same file is sent again
 * after a failure, so that the service resumes it instead of counting it as a new import.
 */
function upload(event) {
  event.preventDefault();
  clearMessages();
  const file = $('upload-file').files[0];
  if (!file) {
    showError('Choose a file first.');
    return Promise.resolve();
  }
  importId = importId || newImportId();
  const bar = $('upload-progress');
  bar.max = Math.max(1, file.size);
  bar.value = 0;
  $('upload-report').hidden = true;
  $('upload-status').textContent = 'Sending ' + file.name + ' (' + number(file.size) + ' bytes)…';
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', campaignPath(current.view.id, '/coupons'));
    xhr.setRequestHeader('Authorization', 'Bearer ' + token());
    xhr.setRequestHeader('Content-Type', fileType(file));
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Import-Id', importId);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        bar.max = Math.max(1, e.total);
        bar.value = e.loaded;
        $('upload-status').textContent = 'Sent ' + Math.floor((100 * e.loaded) / Math.max(1, e.total))
          + ' % of ' + file.name + '…';
      }
    };
    xhr.upload.onload = () => {
      bar.value = bar.max;
      $('upload-status').textContent = 'Sent 100 % of ' + file.name + '; the service is adding the codes…';
    };
    xhr.onload = async () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch (e) {
        // not JSON: leave the body out
      }
      const answer = { status: xhr.status, body, header: (n) => xhr.getResponseHeader(n) };
      if (xhr.status === 200 || xhr.status === 201) {
        $('upload-status').textContent = 'Done: ' + file.name + '.';
        report(body);
        importId = null;
        await refresh();
      } else {
        $('upload-status').textContent = 'Not imported: ' + file.name
          + '. Sending the same file again continues this import.';
        fail(answer);
      }
      resolve();
    };
    xhr.onerror = () => {
      $('upload-status').textContent = 'The upload of ' + file.name
        + ' broke off. Sending the same file again continues this import.';
      fail({ status: 0, body: null, header: () => null });
      resolve();
    };
    xhr.send(file);
  });
}

/** The upload's report: how many lines, added, skipped, invalid, and the invalid lines listed. */
function report(r) {
  $('report-lines').textContent = number(r.lines);
  $('report-added').textContent = number(r.added);
  $('report-skipped').textContent = number(r.skipped);
  $('report-invalid').textContent = number(r.invalid);
  $('report-import-id').textContent = r.importId;
  const listed = r.invalidLines || [];
  const table = $('report-invalid-lines');
  const rows = table.tBodies[0];
  rows.textContent = '';
  for (const l of listed) {
    const row = rows.insertRow();
    row.insertCell().textContent = l.line;
    row.cells[0].className = 'num';
    row.insertCell().textContent = l.reason;
    row.cells[1].className = 'wrap';
  }
  table.hidden = listed.length === 0;
  $('report-invalid-note').textContent = r.invalid === 0 ? 'No invalid line.'
    : r.invalid > listed.length ? 'The first ' + listed.length + ' of ' + number(r.invalid)
      + ' invalid lines:' : 'Invalid lines:';
  $('upload-report').hidden = false;
}

// ------------------------------------------------------------------ audit, export, look-ups

async function audit() {
  clearMessages();
  const answer = await call('GET', campaignPath(current.view.id, '/audit'));
  if (answer.status !== 200) {
    fail(answer);
    return;
  }
  const r = answer.body;
  const verdict = $('audit-verdict');
  verdict.textContent = r.ok ? 'OK: no problem found.' : 'Problems found: ' + number(r.problemCount) + '.';
  verdict.className = 'verdict ' + (r.ok ? 'ok' : 'bad');
  $('audit-coupons').textContent = number(r.coupons);
  $('audit-assigned').textContent = number(r.assigned);
  $('audit-claims').textContent = number(r.claims);
  $('audit-problem-count').textContent = number(r.problemCount);
  $('audit-read-at').textContent = r.readAt;
  const problems = $('audit-problems');
  problems.textContent = '';
  if (r.problems && r.problems.length) {
    problems.appendChild(rendered(r.problems));
  }
  $('audit-result').hidden = false;
}

/**
 * Downloads the claims as CSV: fetched with the token (a link cannot send it), held as a Blob and
 * saved through a link to it.
 */
async function exportClaims() {
  clearMessages();
  const id = current.view.id;
  $('export-result').textContent = 'Exporting…';
  let response;
  try {
    response = await fetch(campaignPath(id, '/claims'),
      { headers: { Authorization: 'Bearer ' + token(), Accept: 'text/csv' }, cache: 'no-store' });
  } catch (e) {
    $('export-result').textContent = '';
    fail({ status: 0, body: null, header: () => null });
    return;
  }
  if (response.status !== 200) {
    $('export-result').textContent = '';
    fail({ status: response.status, body: await bodyOf(response), header: (n) => response.headers.get(n) });
    return;
  }
  const blob = await response.blob();
  const named = /filename="([^"\/\\]+)"/.exec(response.headers.get('Content-Disposition') || '');
  const name = named ? named[1] : id + '-claims.csv';
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  $('export-result').textContent = 'Saved ' + name + ' (' + number(blob.size) + ' bytes).';
}

async function lookUp(event, path) {
  event.preventDefault();
  clearMessages();
  const result = $('lookup-result');
  result.hidden = true;
  const answer = await call('GET', campaignPath(current.view.id, path));
  if (answer.status !== 200) {
    fail(answer);
    return;
  }
  result.textContent = '';
  result.appendChild(rendered(answer.body));
  result.hidden = false;
}

/** Any JSON value as plain elements: objects as term and value, lists of objects as a table. */
function rendered(value) {
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (Array.isArray(value)) {
    if (!value.length) {
      return document.createTextNode('none');
    }
    if (value.every(isObject)) {
      const keys = [...new Set(value.flatMap((v) => Object.keys(v)))];
      const table = document.createElement('table');
      const head = table.createTHead().insertRow();
      for (const k of keys) {
        const th = document.createElement('th');
        th.scope = 'col';
        th.textContent = k;
        head.appendChild(th);
      }
      const rows = table.createTBody();
      for (const v of value) {
        const row = rows.insertRow();
        for (const k of keys) {
          row.insertCell().appendChild(rendered(v[k] === undefined ? null : v[k]));
        }
      }
      const box = document.createElement('div');
      box.className = 'scroll';
      box.appendChild(table);
      return box;
    }
    const list = document.createElement('ul');
    for (const v of value) {
      list.appendChild(document.createElement('li')).appendChild(rendered(v));
    }
    return list;
  }
  if (isObject(value)) {
    const pairs = document.createElement('dl');
    pairs.className = 'pairs';
    for (const [k, v] of Object.entries(value)) {
      const pair = pairs.appendChild(document.createElement('div'));
      pair.appendChild(document.createElement('dt')).textContent = k;
      pair.appendChild(document.createElement('dd')).appendChild(rendered(v));
    }
    return pairs;
  }
  return document.createTextNode(value === null ? '–' : String(value));
}

// ------------------------------------------------------------------ wiring

document.addEventListener('DOMContentLoaded', () => {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  $('refresh-list').addEventListener('click', (e) => busy(e.currentTarget, () => loadList(false)));
  $('more').addEventListener('click', (e) => busy(e.currentTarget, () => loadList(true)));
  $('create-form').addEventListener('submit', (e) => busy($('create'), () => create(e)));
  $('refresh-campaign').addEventListener('click', (e) => busy(e.currentTarget, refresh));
  $('edit-form').addEventListener('submit', (e) => busy($('save'), () => save(e)));
  $('pause').addEventListener('click', (e) => busy(e.currentTarget, () => setPaused(true)));
  $('resume').addEventListener('click', (e) => busy(e.currentTarget, () => setPaused(false)));
  $('audit').addEventListener('click', (e) => busy(e.currentTarget, audit));
  $('export').addEventListener('click', (e) => busy(e.currentTarget, exportClaims));
  $('generate-form').addEventListener('submit', (e) => busy($('generate'), () => generate(e)));
  $('upload-file').addEventListener('change', () => {
    importId = null; // another file: another import
  });
  $('upload-form').addEventListener('submit', (e) => busy($('upload'), () => upload(e)));
  $('user-form').addEventListener('submit', (e) => busy($('lookup-user-go'),
    () => lookUp(e, '/users/' + encodeURIComponent($('lookup-user').value.trim()) + '/claims')));
  $('code-form').addEventListener('submit', (e) => busy($('lookup-code-go'),
    () => lookUp(e, '/coupons/' + encodeURIComponent($('lookup-code').value.trim()))));
  // The dashboard opens signed in: it reads its token from this tab's session storage.
  $('dashboard-link').addEventListener('click', () => sessionStorage.setItem(DASHBOARD_TOKEN_KEY, token()));
  window.addEventListener('hashchange', openFromAddress);
  if (!token()) {
    showSignIn('');
    return;
  }
  call('GET', ADMIN + '?limit=' + PAGE_SIZE).then((answer) => {
    if (answer.status === 200) {
      showApp();
      renderList(answer.body, false);
      openFromAddress();
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
      showSignIn(problemText(answer));
    }
  });
});
