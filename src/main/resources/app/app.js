// flashclaim reference claim page: what a phone app does, in a page. It polls the campaign status
// (GET /v1/campaigns/{id}, with If-None-Match) and claims with POST /v1/campaigns/{id}/claims,
// acting on each answer as docs/client.md describes.
'use strict';

const TOKEN_KEY = 'flashclaim.app.token';
const CAMPAIGN_KEY = 'flashclaim.app.campaign';
const APP_CHECK_KEY = 'flashclaim.app.appCheck';
const POLL_MILLIS = 1000;          // the status is cacheable for a second: asking more often is useless
const NETWORK_RETRY_MILLIS = 2000; // after a network error, which has no Retry-After
const MAX_RETRIES = 120;           // a tap gives up (and says so) after this many retries
const PROBLEM = 'urn:flashclaim:problem:';

const $ = (id) => document.getElementById(id);

let session = 0;        // bumped on sign-in and sign-out: loops of an older session stop
let clockOffset = 0;    // server clock minus this device's, from the last fresh status
let status = null;      // the last status answer's body
let etag = null;        // its ETag, sent back as If-None-Match
let countdownTo = null; // {label, at (ms, server clock), state}: the result's own countdown
let closed = null;      // the button's last label once tapping is pointless (claimed, sold out)
let claiming = false;

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

function campaign() {
  return sessionStorage.getItem(CAMPAIGN_KEY);
}

function serverNow() {
  return Date.now() + clockOffset;
}

function sleep(millis) {
  return new Promise((resolve) => setTimeout(resolve, millis));
}

/** A random Idempotency-Key: one per tap, the same for that tap's retries. */
function newKey() {
  if (crypto.randomUUID) {
    return crypto.randomUUID();
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Calls the service; never throws: a network failure is status 0. */
async function call(method, path, extraHeaders) {
  const headers = Object.assign({ Authorization: 'Bearer ' + token(), Accept: 'application/json' },
    extraHeaders || {});
  let response;
  try {
    response = await fetch(path, { method, headers, cache: 'no-store' });
  } catch (e) {
    return { status: 0, body: null, header: () => null };
  }
  let body = null;
  if (response.status !== 304) {
    try {
      body = await response.json();
    } catch (e) {
      // not JSON: leave the body out
    }
  }
  return { status: response.status, body, header: (name) => response.headers.get(name) };
}

function problemType(answer) {
  return answer.body && typeof answer.body.type === 'string' ? answer.body.type.replace(PROBLEM, '') : '';
}

// The wait the service told: in milliseconds (Flashclaim-Retry-After-Ms, the turn it was given)
// when the answer has them, else Retry-After's whole seconds.
function retryMillis(answer) {
  const millis = Number(answer.header('Flashclaim-Retry-After-Ms') ?? NaN);
  if (Number.isFinite(millis) && millis > 0) {
    return millis;
  }
  const seconds = Number(answer.header('Retry-After'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : NETWORK_RETRY_MILLIS;
}

function showError(message) {
  $('error').textContent = message || '';
  $('error').hidden = !message;
}

function duration(millis) {
  const total = Math.max(0, Math.ceil(millis / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const clock = (days || hours ? hours + ':' + String(minutes).padStart(2, '0') : String(minutes))
    + ':' + String(seconds).padStart(2, '0');
  return days ? days + 'd ' + clock : clock;
}

// ---- the result of a tap ----

function setResult(state, text) {
  $('result').dataset.state = state;
  $('result-text').textContent = text;
  $('coupon').hidden = state !== 'claimed' && state !== 'held';
  if (state !== 'not-open' && state !== 'waiting') {
    countdownTo = null;
  }
}

/** A final answer: the button stays off with this label. */
function closeButton(label) {
  closed = label;
  $('claim').disabled = true;
  $('claim').textContent = label;
}

function showCoupon(code, fresh) {
  $('code').textContent = code;
  setResult(fresh ? 'claimed' : 'held', fresh ? 'Claimed! Show this code at checkout.' : 'You hold a coupon of this campaign.');
  closeButton('Claimed');
}

/** 403 campaign-not-open: a countdown to the start, or the end of the campaign. */
function showNotOpen(problem) {
  const startsAt = problem.startsAt ? Date.parse(problem.startsAt) : null;
  if (startsAt && startsAt > serverNow()) {
    setResult('not-open', '');
    countdownTo = { state: 'not-open', label: 'Not open yet. Starts in ', at: startsAt };
    tick();
  } else {
    setResult('ended', 'This campaign has ended.');
    closeButton('Ended');
  }
}

async function claim() {
  if (claiming || closed) {
    return;
  }
  const mySession = session;
  claiming = true;
  $('claim').disabled = true;
  const key = newKey();
  let ticket = null;
  try {
    for (let retries = 0; mySession === session; retries++) {
      setResult('claiming', 'Claiming…');
      const headers = { 'Idempotency-Key': key };
      if (ticket) {
        headers['Flashclaim-Ticket'] = ticket;
      }
      const appCheck = sessionStorage.getItem(APP_CHECK_KEY);
      if (appCheck) {
        headers['X-Firebase-AppCheck'] = appCheck;
      }
      const answer = await call('POST', '/v1/campaigns/' + encodeURIComponent(campaign()) + '/claims', headers);
      if (mySession !== session) {
        return;
      }
      if (answer.status === 201 || answer.status === 200) {
        showCoupon(answer.body.code, answer.status === 201);
        return;
      }
      if (answer.status === 410) {
        setResult('sold-out', 'Sold out: every coupon has been claimed.');
        closeButton('Sold out');
        return;
      }
      if (answer.status === 403 && problemType(answer) === 'campaign-not-open') {
        showNotOpen(answer.body);
        return;
      }
      if (answer.status === 403 && problemType(answer) === 'campaign-paused') {
        setResult('paused', 'The sale is paused. Tap again later.');
        return;
      }
      if (answer.status === 401) {
        if (problemType(answer) === 'app-check-required') {
          setResult('app-check', 'This app could not be verified (App Check), so it cannot claim.');
        } else {
          signOut('Your sign-in is no longer valid (401). Sign in again.');
        }
        return;
      }
      // 429 retry-too-soon: this tap came back before a 503's Retry-After (say, a reload): wait.
      const retryable = answer.status === 0 || answer.status === 503 || answer.status === 429
        || (answer.status === 409 && answer.header('Retry-After') !== null);
      if (!retryable) {
        setResult('error', 'Could not claim (' + answer.status + ')'
          + (answer.body && answer.body.detail ? ': ' + answer.body.detail : '') + '.');
        return;
      }
      if (retries >= MAX_RETRIES) {
        setResult('error', 'The service stayed busy. Tap again to keep trying.');
        return;
      }
      // A ticket keeps this tap's place in line: send back the newest one unchanged.
      ticket = answer.header('Flashclaim-Ticket') || ticket;
      const wait = retryMillis(answer);
      setResult('waiting', '');
      countdownTo = {
        state: 'waiting',
        label: answer.status === 0
          ? 'Connection problem. Retrying in '
          : 'Many people are claiming right now. You keep your place; retrying in ',
        at: serverNow() + wait,
      };
      tick();
      await sleep(wait);
    }
  } finally {
    claiming = false;
    $('claim').disabled = closed !== null;
  }
}

// ---- the campaign status ----

const STATUS_TEXT = {
  upcoming: 'Upcoming', open: 'Open', 'sold-out': 'Sold out', paused: 'Paused', ended: 'Ended',
};

function renderStatus() {
  if (!status) {
    return;
  }
  $('campaign-name').textContent = status.name;
  $('status').textContent = STATUS_TEXT[status.status] || status.status;
  $('status').className = 'badge ' + status.status;
  $('remaining').textContent = Number(status.remaining).toLocaleString('en-US');
  tick();
}

/** Updates the countdowns: the campaign's, and the result's (not open yet, waiting to retry). */
function tick() {
  const now = serverNow();
  if (status) {
    let label = '';
    let target = null;
    if (status.status === 'upcoming' && status.startsAt) {
      label = 'Starts in';
      target = Date.parse(status.startsAt);
    } else if ((status.status === 'open' || status.status === 'sold-out') && status.endsAt) {
      label = 'Ends in';
      target = Date.parse(status.endsAt);
    } else if (status.status === 'ended') {
      label = 'Ended';
    }
    $('countdown-box').hidden = !label;
    $('countdown-label').textContent = label;
    $('countdown').textContent = target === null ? '' : duration(target - now);
  }
  if (countdownTo && $('result').dataset.state === countdownTo.state) {
    if (countdownTo.state === 'not-open' && countdownTo.at <= now) {
      countdownTo = null;
      setResult('idle', '');
    } else {
      $('result-text').textContent = countdownTo.label + duration(countdownTo.at - now) + '.';
    }
  }
}

async function pollStatus(mySession) {
  while (mySession === session) {
    const answer = await call('GET', '/v1/campaigns/' + encodeURIComponent(campaign()),
      etag ? { 'If-None-Match': etag } : {});
    if (mySession !== session) {
      return;
    }
    let wait = POLL_MILLIS;
    if (answer.status === 200) {
      status = answer.body;
      etag = answer.header('ETag');
      clockOffset = Date.parse(status.serverTime) - Date.now();
      $('status-note').textContent = '';
      renderStatus();
    } else if (answer.status === 304) {
      // unchanged: what is shown is current
    } else if (answer.status === 401) {
      signOut('Your sign-in is no longer valid (401). Sign in again.');
      return;
    } else if (answer.status === 404) {
      signOut('No campaign has the id "' + campaign() + '" (404).');
      return;
    } else {
      wait = Math.max(wait, retryMillis(answer));
      $('status-note').textContent = answer.status === 0
        ? 'Connection problem; the figures may be old.'
        : 'The service is busy; the figures may be old.';
    }
    await sleep(wait);
  }
}

// ---- signing in and out ----

function showSignIn(message) {
  $('claim-panel').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in-panel').hidden = false;
  $('campaign-id').value = $('campaign-id').value || campaign() || campaignFromAddress();
  showError(message);
}

function signOut(message) {
  session++;
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(APP_CHECK_KEY);
  showSignIn(message);
}

function campaignFromAddress() {
  return decodeURIComponent((location.hash.match(/campaign=([^&]*)/) || [])[1] || '');
}

async function start() {
  const mySession = ++session;
  status = null;
  etag = null;
  closed = null;
  countdownTo = null;
  $('claim').disabled = false;
  $('claim').textContent = 'Claim coupon';
  setResult('idle', '');
  // The status says whether the token is good and the campaign exists, before anything is shown.
  const first = await call('GET', '/v1/campaigns/' + encodeURIComponent(campaign()));
  if (mySession !== session) {
    return;
  }
  if (first.status === 401) {
    signOut('Not signed in (401): the token is missing, malformed, expired or not accepted by this service.');
    return;
  }
  if (first.status === 404 || first.status === 400) {
    signOut('No campaign has the id "' + campaign() + '" (' + first.status + ').');
    return;
  }
  showError('');
  $('sign-in-panel').hidden = true;
  $('sign-out').hidden = false;
  $('claim-panel').hidden = false;
  // What the user already holds, so that a reload shows the coupon.
  const mine = await call('GET', '/v1/campaigns/' + encodeURIComponent(campaign()) + '/claims/me');
  if (mySession === session && mine.status === 200 && mine.body.coupons.length > 0) {
    showCoupon(mine.body.coupons[mine.body.coupons.length - 1].code, false);
  }
  pollStatus(mySession);
}

function signIn(event) {
  event.preventDefault();
  const candidate = $('token').value.trim().replace(/^Bearer\s+/i, '');
  const id = $('campaign-id').value.trim();
  if (!candidate || !id) {
    showError('Paste your token and give the campaign first.');
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, candidate);
  sessionStorage.setItem(CAMPAIGN_KEY, id);
  const appCheck = $('app-check').value.trim();
  if (appCheck) {
    sessionStorage.setItem(APP_CHECK_KEY, appCheck);
  } else {
    sessionStorage.removeItem(APP_CHECK_KEY);
  }
  $('token').value = '';
  start();
}

document.addEventListener('DOMContentLoaded', () => {
  $('sign-in-form').addEventListener('submit', signIn);
  $('sign-out').addEventListener('click', () => signOut(''));
  $('claim').addEventListener('click', claim);
  setInterval(tick, 250);
  if (token() && campaign()) {
    start();
  } else {
    showSignIn('');
  }
});
