// flashclaim live campaign dashboard: polls GET /v1/admin/campaigns/{id}/live with the admin token.
'use strict';

const TOKEN_KEY = 'flashclaim.dashboard.token';
const CAMPAIGN_KEY = 'flashclaim.dashboard.campaign';
const MAX_POINTS = 900;          // chart points kept (15 min at one poll a second)
const RETRY_MILLIS = 2000;       // after a network error or a 5xx without Retry-After

const $ = (id) => document.getElementById(id);
const number = (n) => (n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US'));
const rate = (r) => (r === null || r === undefined ? '–' : Number(r).toFixed(1));
const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '–');

let watch = 0;                   // bumped on every new campaign or sign-out: stale polls stop
let series = [];                 // [{t: ms, remaining, total}]
let shownAt = null;              // when the figures on the page were read (ISO), null before any

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

function showError(message) {
  $('error').textContent = message;
  $('error').hidden = !message;
}

async function call(path, bearer) {
  let response;
  try {
    response = await fetch(path, {
      headers: { Authorization: 'Bearer ' + bearer, Accept: 'application/json' },
      cache: 'no-store',
    });
  } catch (e) {
    return { status: 0, body: null, retryAfter: null };
  }
  let body = null;
  try {
    body = await response.json();
  } catch (e) {
    // not JSON: leave the body out
  }
  return { status: response.status, body, retryAfter: response.headers.get('Retry-After') };
}

/** A readable message for an answer that is not 200, from its status and problem+json body. */
function problemMessage(answer, campaign) {
  const detail = answer.body && answer.body.detail ? answer.body.detail : '';
  switch (answer.status) {
    case 0:
      return 'The service could not be reached; retrying.';
    case 400:
      return 'Invalid request (400): ' + (detail || 'bad campaign id') + '.';
    case 401:
      return 'Not signed in (401): the token is missing, malformed, expired or not signed by this '
        + 'service. Sign in with a valid admin token.';
    case 403:
      return 'Forbidden (403): this token has no admin role. Mint one with bin/mint-token NAME --admin.';
    case 404:
      return campaign ? 'No campaign has the id "' + campaign + '" (404).' : 'Not found (404).';
    case 503:
      return 'Service unavailable (503): ' + (detail || 'busy or the store is unavailable')
        + (shownAt ? '; the figures below are from ' + time(shownAt) : '')
        + '; retrying in ' + retryMillis(answer) / 1000 + ' s.';
    default:
      return 'Unexpected answer ' + answer.status + (detail ? ': ' + detail : '') + '.';
  }
}

function retryMillis(answer) {
  const seconds = Number(answer.retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : RETRY_MILLIS;
}

function showSignIn(message) {
  watch++;
  $('app').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in-panel').hidden = false;
  showError(message || '');
}

async function showApp() {
  $('sign-in-panel').hidden = true;
  $('sign-out').hidden = false;
  $('app').hidden = false;
  const initial = decodeURIComponent((location.hash.match(/campaign=([^&]*)/) || [])[1] || '')
    || sessionStorage.getItem(CAMPAIGN_KEY);
  if (initial) {
    $('campaign-id').value = initial;
    startWatching(initial);
  }
}

/** Fills the picker with the campaigns that had claims on this instance. */
function fillActive(body) {
  const list = $('active-campaigns');
  list.textContent = '';
  const campaigns = (body && body.campaigns) || [];
  for (const c of campaigns) {
    const option = document.createElement('option');
    option.value = c.id;
    list.appendChild(option);
  }
  $('active-note').textContent = campaigns.length
    ? 'Suggestions: campaigns with claims on this instance.'
    : 'No claims on this instance yet: type a campaign id.';
}

async function signIn(event) {
  event.preventDefault();
  const candidate = $('token').value.trim().replace(/^Bearer\s+/i, '');
  if (!candidate) {
    showError('Paste an admin token first.');
    return;
  }
  const answer = await call('/v1/admin/live', candidate);
  if (answer.status !== 200) {
    showError(problemMessage(answer));
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, candidate);
  $('token').value = '';
  showError('');
  fillActive(answer.body);
  showApp();
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(CAMPAIGN_KEY);
  $('live').hidden = true;
  showSignIn('');
}

function startWatching(campaign) {
  const mine = ++watch;
  series = [];
  shownAt = null;
  sessionStorage.setItem(CAMPAIGN_KEY, campaign);
  history.replaceState(null, '', '#campaign=' + encodeURIComponent(campaign));
  $('live').hidden = true;
  showError('');
  call('/v1/admin/live', token()).then((answer) => answer.status === 200 && fillActive(answer.body));
  poll(campaign, mine);
}

async function poll(campaign, mine) {
  const answer = await call('/v1/admin/campaigns/' + encodeURIComponent(campaign) + '/live', token());
  if (mine !== watch) {
    return; // another campaign was chosen, or signed out, meanwhile
  }
  if (answer.status === 200) {
    showError('');
    render(answer.body);
    setTimeout(() => poll(campaign, mine), answer.body.pollIntervalMillis || 1000);
    return;
  }
  showError(problemMessage(answer, campaign));
  if (answer.status === 0 || answer.status >= 500) {
    setTimeout(() => poll(campaign, mine), retryMillis(answer));
  } else if (answer.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    showSignIn(problemMessage(answer, campaign));
  } else {
    $('live').hidden = true; // 400, 403, 404: nothing to show until another id is chosen
  }
}

function render(view) {
  const s = view.stock;
  const i = view.instance;
  $('campaign-name').textContent = view.campaign.name;
  $('campaign-shown').textContent = view.campaign.name === view.campaign.id ? '' : view.campaign.id;
  $('campaign-window').textContent = view.campaign.window;
  shownAt = view.at;
  $('updated').textContent = time(view.at);
  $('stock-read').textContent = time(s.readAt);
  $('total').textContent = number(s.total);
  $('assigned').textContent = number(s.assigned);
  $('remaining').textContent = number(s.remaining);
  $('store-rate').textContent = rate(s.assignedPerSecond);
  $('instance-rate').textContent = rate(i.claimsPerSecond);
  $('instance-assigned-rate').textContent = rate(i.assignedPerSecond);
  $('outcome-claimed').textContent = number(i.outcomes.claimed);
  $('outcome-already-held').textContent = number(i.outcomes.alreadyHeld);
  $('outcome-sold-out').textContent = number(i.outcomes.soldOut);
  $('outcome-not-open').textContent = number(i.outcomes.notOpen);
  $('outcome-busy').textContent = number(i.outcomes.busy);
  $('outcome-store-failed').textContent = number(i.outcomes.storeFailed);
  $('counting-since').textContent = i.countingSince ? time(i.countingSince) : 'no claims here yet';
  for (const el of document.querySelectorAll('.rate-window')) {
    el.textContent = view.rateWindowSeconds;
  }
  const t = Date.parse(s.readAt);
  if (!series.length || series[series.length - 1].t !== t) {
    series.push({ t, remaining: s.remaining, total: s.total });
    if (series.length > MAX_POINTS) {
      series.shift();
    }
  }
  $('live').hidden = false;
  drawChart();
}

/** Remaining coupons over time: a line on a canvas, y from 0 to the total, x over the readings. */
function drawChart() {
  const canvas = $('chart');
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const left = 64, right = 12, top = 12, bottom = 28;
  const w = width - left - right, h = height - top - bottom;
  const total = Math.max(1, ...series.map((p) => p.total));
  const t0 = series.length ? series[0].t : 0;
  const t1 = series.length ? series[series.length - 1].t : 0;
  const span = Math.max(60000, t1 - t0);   // at least a minute wide
  const x = (t) => left + ((t - t0) / span) * w;
  const y = (v) => top + h - (v / total) * h;

  g.font = '12px system-ui, sans-serif';
  g.fillStyle = '#5c6577';
  g.strokeStyle = '#d6dae3';
  g.lineWidth = 1;
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const v = Math.round(total * f);
    g.beginPath();
    g.moveTo(left, y(v));
    g.lineTo(left + w, y(v));
    g.stroke();
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    g.fillText(v.toLocaleString('en-US'), left - 6, y(v));
  }
  g.textAlign = 'left';
  g.textBaseline = 'top';
  g.fillText(series.length ? new Date(t0).toLocaleTimeString() : '', left, top + h + 8);
  g.textAlign = 'right';
  g.fillText('+' + Math.round(span / 1000) + ' s', left + w, top + h + 8);
  if (!series.length) {
    return;
  }
  g.beginPath();
  g.moveTo(x(series[0].t), y(series[0].remaining));
  for (const p of series) {
    g.lineTo(x(p.t), y(p.remaining));
  }
  g.strokeStyle = '#1f6feb';
  g.lineWidth = 2;
  g.stroke();
  g.lineTo(x(series[series.length - 1].t), y(0));
  g.lineTo(x(series[0].t), y(0));
  g.closePath();
  g.fillStyle = 'rgba(31, 111, 235, 0.12)';
  g.fill();
}

document.addEventListener('DOMContentLoaded', () => {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', signOut);
  $('campaign-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const campaign = $('campaign-id').value.trim();
    if (campaign) {
      startWatching(campaign);
    }
  });
  window.addEventListener('resize', drawChart);
  if (!token()) {
    showSignIn('');
    return;
  }
  call('/v1/admin/live', token()).then((answer) => {
    if (answer.status === 200) {
      fillActive(answer.body);
      showApp();
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
      showSignIn(problemMessage(answer));
    }
  });
});
