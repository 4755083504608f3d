/**
 * The token page (`/account/api-tokens`): its markup and the settings its script runs with.
 *
 * DOM the browser checks rely on (docs/reference-server.md, "The token page"):
 * - button "Generate token" (`#generate-token`);
 * - `[data-testid=api-token-message]` (role status): the five messages of spec §7, exact text, and
 *   "Token copied." after a successful copy;
 * - `#new-token` (hidden until a token arrives, removed at 0:00): `[data-testid=api-token]` (the
 *   masked token), `[data-testid=api-token-countdown]` (`2:00` ... `0:00`), button "Copy".
 *
 * Each fault of the page is one setting here, read by the one script (token-page-script.ts).
 */
import { identityUrl, type TenantContext, tenantUrl } from '../context.js';
import type { User } from '../directory.js';
import { escapeHtml, jsonForHtml, type Page } from '../html-pages.js';
import { frame } from './layout.js';
import { GENERATE_PATH, TOKEN_PAGE_PATH } from '../web-paths.js';
import { TOKEN_PAGE_SCRIPT } from './token-page-script.js';

/** The interface messages of spec §7, word for word. */
const MESSAGES = {
  signinUnreachable: "Couldn't start API token generation. Try again.",
  cancelled: 'API token generation was cancelled.',
  noToken: 'The API token could not be generated.',
  copyBlocked: "Couldn't copy the token. Select it and copy it manually.",
  cleared: "API token cleared from the screen. If you didn't copy it, generate a new one.",
  copied: 'Token copied.',
} as const;

/** On-screen time of a new token (spec §8). */
const DISPLAY_SECONDS = 120;

export interface TokenPageSettings {
  readonly clientId: string;
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly revocationEndpoint: string;
  readonly checkUrl: string;
  readonly checkTimeoutMs: number;
  readonly redirectUri: string;
  readonly loginHint: string;
  readonly displaySeconds: number;
  readonly mask: boolean;
  readonly clearAtZero: boolean;
  /** Seconds after which the token leaves the screen (the countdown's length, but for a fault). */
  readonly clearAfterSeconds: number;
  readonly keepOnReload: boolean;
  readonly revokeOnClear: boolean;
  readonly copyWhole: boolean;
  readonly messages: Record<keyof typeof MESSAGES, string>;
  /** Variant `token-page-server-side`: Generate token goes to this server path, whose server redeems the code. */
  readonly serverSide: { readonly generateUrl: string } | undefined;
  /** Server-side: what the server's redemption came to, shown once by the script (the token, or a message). */
  readonly generated?: { readonly token: string } | { readonly message: 'cancelled' | 'noToken' };
}

/** The page redeems its code on its server (a conformant variant, and the fault that breaks its NO-TOKEN case). */
export function redeemsServerSide(ctx: TenantContext): boolean {
  return ctx.ref.faults.has('token-page-server-side') || ctx.ref.faults.has('token-page-offline-access-ignored');
}

export function tokenPageSettings(ctx: TenantContext, user: User): TokenPageSettings {
  const { faults } = ctx.ref;
  const displaySeconds = faults.has('token-page-countdown-from-1-00') ? 60 : DISPLAY_SECONDS;
  const identity = identityUrl(ctx.ref);
  return {
    clientId: ctx.ref.config.clientId,
    authorizationEndpoint: `${identity}/protocol/openid-connect/auth`,
    tokenEndpoint: `${identity}/protocol/openid-connect/token`,
    revocationEndpoint: `${identity}/protocol/openid-connect/revoke`,
    // TOKEN-PAGE-SIGNIN-UNREACHABLE: the script asks this address before leaving for the sign-in page.
    checkUrl: `${identity}/.well-known/openid-configuration`,
    checkTimeoutMs: 5000,
    redirectUri: tenantUrl(ctx.ref, ctx.tenant.name) + TOKEN_PAGE_PATH,
    loginHint: user.email,
    // TOKEN-PAGE-COUNTDOWN: from 2:00.
    displaySeconds,
    // TOKEN-PAGE-MASKED: only `tpat_`, bullets and the last 4 characters are on screen.
    mask: !faults.has('token-page-unmasked'),
    // TOKEN-PAGE-CLEARED: at 0:00 the token leaves the DOM and the notice is shown.
    clearAtZero: !faults.has('token-page-not-cleared'),
    // TOKEN-PAGE-COUNTDOWN: the token stays on screen as long as the countdown runs.
    clearAfterSeconds: faults.has('token-page-cleared-early') ? 60 : displaySeconds,
    // TOKEN-PAGE-SHOWN-ONCE: the token is kept nowhere but in the script's memory.
    keepOnReload: faults.has('token-page-shown-on-reload'),
    // TOKEN-PAGE-STAYS-VALID: clearing the screen does nothing to the token itself.
    revokeOnClear: faults.has('token-page-revokes-cleared-token'),
    // TOKEN-PAGE-COPY: Copy writes the whole token.
    copyWhole: !faults.has('token-page-copy-truncated'),
    messages: {
      ...MESSAGES,
      // TOKEN-PAGE-SIGNIN-UNREACHABLE, TOKEN-PAGE-CANCELLED, TOKEN-PAGE-NO-TOKEN, TOKEN-PAGE-COPY-BLOCKED: spec §7's words.
      ...(faults.has('token-page-unreachable-wrong-text') ? { signinUnreachable: 'Could not reach the sign-in page.' } : {}),
      ...(faults.has('token-page-cancel-wrong-text') ? { cancelled: 'Token generation cancelled.' } : {}),
      ...(faults.has('token-page-no-token-wrong-text') ? { noToken: 'Something went wrong.' } : {}),
      ...(faults.has('token-page-copy-failure-ignored') ? { copyBlocked: MESSAGES.copied } : {}),
    },
    serverSide: redeemsServerSide(ctx) ? { generateUrl: tenantUrl(ctx.ref, ctx.tenant.name) + GENERATE_PATH } : undefined,
  };
}

export function tokenPage(ctx: TenantContext, user: User, settings: TokenPageSettings, tokenList: string): Page {
  const main =
    '<h1>API tokens</h1>\n' +
    '<p>A personal API token lets a script call the API as you. Generating one asks for your password again. ' +
    'The token is shown once, for 2 minutes: copy it into a secret store.</p>\n' +
    '<button type="button" id="generate-token">Generate token</button>\n' +
    '<p id="api-token-message" data-testid="api-token-message" role="status" aria-live="polite"></p>\n' +
    '<section id="new-token" data-testid="new-api-token" aria-labelledby="new-token-heading" hidden>\n' +
    '<h2 id="new-token-heading">Your new API token</h2>\n' +
    '<p><code class="token" id="api-token" data-testid="api-token"></code>' +
    '<span class="countdown" id="api-token-countdown" data-testid="api-token-countdown" role="timer"></span></p>\n' +
    '<button type="button" id="copy-token">Copy</button>\n<button type="button" id="reveal-token" hidden>Show token</button>\n</section>\n' +
    tokenList +
    `<script type="application/json" id="api-token-settings">${jsonForHtml(settings)}</script>`;
  return {
    title: 'API tokens',
    body: frame(ctx.tenant, user, TOKEN_PAGE_PATH, main),
    script: TOKEN_PAGE_SCRIPT,
    connect: [new URL(settings.tokenEndpoint).origin],
  };
}

/** Fault `token-page-lists-tokens` only: the user's live tokens, each with a Revoke button. */
export function tokenListHtml(ctx: TenantContext, user: User): string {
  const grants = ctx.ref.apiTokens.grantsOf(user.id);
  const rows = grants.map((grant) => `<li>Generated ${escapeHtml(new Date(grant.generatedAt).toISOString())} <button type="button">Revoke</button></li>`);
  return (
    '<section aria-labelledby="token-list-heading">\n<h2 id="token-list-heading">Your API tokens</h2>\n' +
    `<ul data-testid="api-token-list">${rows.join('')}</ul>\n</section>\n`
  );
}
