/**
 * The token page's only script, inline (CSP nonce), no framework. It reads its settings from the
 * JSON block `#api-token-settings` (token-page.ts) and:
 *
 * - Generate token: checks that the sign-in server answers (a no-cors GET of its discovery
 *   document; a network failure or 5 s without an answer shows "Couldn't start API token
 *   generation. Try again."), makes a fresh state and PKCE verifier (kept in this tab's
 *   sessionStorage), and sends the browser to the authorization endpoint with `prompt=login` and
 *   `scope=openid offline_access`. On the server-side page (variant `token-page-server-side`) it
 *   goes to the page's own generate path instead, and shows what the server's redemption handed it.
 * - Back on the page with `?code&state` or `?error&state`: removes the query from the address bar
 *   and history first, checks the state, then redeems the code at the token endpoint with fetch
 *   (CORS is granted to this origin for that grant only). The answer's `refresh_token` is the API
 *   token; none, or any failure, shows "The API token could not be generated.";
 *   `error=access_denied` shows "API token generation was cancelled.".
 * - Shows the token masked (`tpat_••••••••` + its last 4 characters) in `[data-testid=api-token]`,
 *   with a countdown from 2:00 computed from `Date.now()` on a 250 ms `setInterval` (so a controlled
 *   browser clock fast-forwards it). At 0:00 the token's section is removed from the DOM and the
 *   cleared notice is shown. The full value lives only in a variable of this closure.
 * - Copy writes exactly the full token with `navigator.clipboard.writeText`; a refusal shows the
 *   copy-failure message and a "Show token" button (pressed, it shows the full token, so that it
 *   can be selected and copied by hand, as the message says).
 *
 * Everything that differs under a fault is a setting, never a second script.
 */
export const TOKEN_PAGE_SCRIPT = String.raw`
(() => {
  'use strict';
  const settings = JSON.parse(document.getElementById('api-token-settings').textContent);
  const messages = settings.messages;
  const el = (id) => document.getElementById(id);
  const generate = el('generate-token');
  const message = el('api-token-message');
  const PENDING = 'tack.api-token.pending';
  const KEPT = 'tack.api-token.shown';
  let current; // the full token while it is on screen; never written to the DOM unless revealed

  const say = (text) => { message.textContent = text; };
  const base64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
  const masked = (token) => (token.length <= 12 ? '••••••••••••' : token.slice(0, 5) + '••••••••' + token.slice(-4));
  const clockText = (seconds) => Math.floor(seconds / 60) + ':' + String(seconds % 60).padStart(2, '0');

  async function start() {
    generate.disabled = true;
    say('');
    try {
      await fetch(settings.checkUrl, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(settings.checkTimeoutMs) });
      if (settings.serverSide) return location.assign(settings.serverSide.generateUrl);
      const state = randomString();
      const verifier = randomString();
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
      sessionStorage.setItem(PENDING, JSON.stringify({ state, verifier }));
      const url = new URL(settings.authorizationEndpoint);
      url.search = new URLSearchParams({
        client_id: settings.clientId, redirect_uri: settings.redirectUri, response_type: 'code', scope: 'openid offline_access', prompt: 'login',
        login_hint: settings.loginHint, state, code_challenge: base64url(new Uint8Array(digest)), code_challenge_method: 'S256',
      }).toString();
      location.assign(url.href);
    } catch (error) {
      generate.disabled = false;
      say(messages.signinUnreachable);
    }
  }

  async function finish(params) {
    history.replaceState(null, '', location.pathname);
    let pending = null;
    try { pending = JSON.parse(sessionStorage.getItem(PENDING) || 'null'); } catch (error) { pending = null; }
    sessionStorage.removeItem(PENDING);
    if (pending === null || params.get('state') !== pending.state) return say(messages.noToken);
    if (params.has('error')) return say(params.get('error') === 'access_denied' ? messages.cancelled : messages.noToken);
    let token;
    try {
      const response = await fetch(settings.tokenEndpoint, {
        method: 'POST', credentials: 'omit', cache: 'no-store',
        body: new URLSearchParams({
          grant_type: 'authorization_code', code: params.get('code') || '', redirect_uri: settings.redirectUri,
          client_id: settings.clientId, code_verifier: pending.verifier,
        }),
      });
      const body = response.ok ? await response.json() : null;
      if (body !== null && typeof body.refresh_token === 'string' && body.refresh_token !== '') token = body.refresh_token;
    } catch (error) {
      token = undefined;
    }
    if (token === undefined) return say(messages.noToken);
    if (settings.keepOnReload) sessionStorage.setItem(KEPT, token);
    show(token);
  }

  function show(token) {
    current = token;
    const section = el('new-token');
    const countdown = el('api-token-countdown');
    el('api-token').textContent = settings.mask ? masked(token) : token;
    section.hidden = false;
    const ends = Date.now() + settings.displaySeconds * 1000;
    const clearsAt = Date.now() + settings.clearAfterSeconds * 1000;
    const render = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      countdown.textContent = clockText(left);
      return left;
    };
    render();
    const timer = setInterval(() => {
      if (render() > 0 && Date.now() < clearsAt) return;
      clearInterval(timer);
      if (settings.clearAtZero) clear(section);
    }, 250);
  }

  function clear(section) {
    const token = current;
    current = undefined;
    section.remove();
    sessionStorage.removeItem(KEPT);
    if (settings.revokeOnClear) {
      const body = new URLSearchParams({ client_id: settings.clientId, token_type_hint: 'refresh_token', token });
      fetch(settings.revocationEndpoint, { method: 'POST', mode: 'no-cors', credentials: 'omit', body }).catch(() => undefined);
    }
    say(messages.cleared);
  }

  el('copy-token').addEventListener('click', () => {
    const token = current;
    if (token === undefined) return;
    const text = settings.copyWhole ? token : token.slice(0, -1);
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(text))
      .then(() => say(messages.copied), () => {
        say(messages.copyBlocked);
        el('reveal-token').hidden = false;
      });
  });
  el('reveal-token').addEventListener('click', () => {
    if (current !== undefined) el('api-token').textContent = current;
  });
  generate.addEventListener('click', start);

  const params = new URLSearchParams(location.search);
  if (settings.serverSide) {
    if (settings.generated) history.replaceState(null, '', location.pathname);
    if (settings.generated && settings.generated.token) show(settings.generated.token);
    else if (settings.generated) say(messages[settings.generated.message]);
  } else if (params.has('code') || params.has('error')) finish(params);
  else if (settings.keepOnReload && sessionStorage.getItem(KEPT)) show(sessionStorage.getItem(KEPT));
})();
`;
