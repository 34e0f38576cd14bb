import { randomBytes } from 'node:crypto';
import type { Account } from './accounts.ts';

/** HTML-escapes text for element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The languages the sign-in pages are written in. */
export type PageLanguage = 'en' | 'es';

/** Every word of the sign-in pages, in each language they are written in. */
const WORDS = {
  en: {
    brand: 'Sign-in',
    signIn: 'Sign in',
    intro: 'Use your Wayfare account to continue to your trips.',
    email: 'Email',
    password: 'Password',
    cancel: 'Cancel',
    demoTravelers: 'Demo travelers',
    demoIntro: 'This is a demo: sign in as one of these travelers.',
    signInAs: (name: string) => `Sign in as ${name}`,
    wrongCredentials: 'The email or password is not right. Check them and try again.',
  },
  es: {
    brand: 'Inicio de sesión',
    signIn: 'Iniciar sesión',
    intro: 'Usa tu cuenta de Wayfare para continuar a tus viajes.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    cancel: 'Cancelar',
    demoTravelers: 'Viajeros de demostración',
    demoIntro: 'Esto es una demostración: inicia sesión como uno de estos viajeros.',
    signInAs: (name: string) => `Iniciar sesión como ${name}`,
    wrongCredentials:
      'El correo electrónico o la contraseña no son correctos. Revísalos e inténtalo de nuevo.',
  },
} satisfies Record<PageLanguage, unknown>;

/**
 * The language of the sign-in page for a browser's Accept-Language (RFC 9110 12.5.4): the one it prefers
 * most (highest q, then first listed) among English and Spanish, else English.
 */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  let best: { language: PageLanguage; q: number } | undefined;
  for (const range of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...parameters] = range.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0];
    const qParameter = parameters.map((parameter) => parameter.trim()).find((p) => p.startsWith('q='));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if ((language !== 'en' && language !== 'es') || !(q > 0)) continue;
    if (!best || q > best.q) best = { language, q };
  }
  return best?.language ?? 'en';
}

export interface RenderedPage {
  html: string;
  /** The Content-Security-Policy for this page: its inline style (and script) allowed by nonce only. */
  contentSecurityPolicy: string;
}

const STYLE = `
:root { color-scheme: light dark; --bg:#f6f7f9; --surface:#fff; --muted-surface:#eef1f5; --text:#16202e;
  --muted:#4a5568; --border:#c9d1dc; --primary:#0b5cad; --primary-hover:#094a8c; --on-primary:#fff;
  --danger:#b3261e; --danger-soft:#fbe4e2; --focus:#0b5cad; }
@media (prefers-color-scheme: dark) { :root { --bg:#0f141b; --surface:#18202b; --muted-surface:#222c39;
  --text:#e8edf3; --muted:#a9b4c2; --border:#3a4656; --primary:#7cb8f5; --primary-hover:#a3cdf8;
  --on-primary:#0b1a2b; --danger:#ff9a92; --danger-soft:#3b1a18; --focus:#7cb8f5; } }
*, *::before, *::after { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--text); line-height:1.5;
  font-family:'Inter','Segoe UI',system-ui,-apple-system,'Helvetica Neue',Arial,'Noto Sans',sans-serif; }
header { background:var(--surface); border-bottom:1px solid var(--border); }
.brand { display:flex; align-items:center; gap:.5rem; max-width:28rem; margin:0 auto; padding:1rem;
  font-weight:800; font-size:1.125rem; }
.brand span { color:var(--muted); font-weight:500; }
main { max-width:28rem; margin:2rem auto; padding:0 1rem; }
.card { background:var(--surface); border:1px solid var(--border); border-radius:16px; padding:1.5rem;
  box-shadow:0 1px 2px rgb(16 24 40 / 6%), 0 1px 3px rgb(16 24 40 / 10%); }
h1 { font-size:1.375rem; margin:0 0 .25rem; line-height:1.25; }
h2 { font-size:1rem; margin:0 0 .75rem; }
p { margin:0 0 1rem; color:var(--muted); }
label { display:block; font-weight:600; margin:0 0 .25rem; }
input { display:block; width:100%; font:inherit; color:inherit; background:var(--surface); padding:.625rem .75rem;
  border:1px solid #6b7685; border-radius:10px; margin:0 0 1rem; }
input[aria-invalid="true"] { border-color:var(--danger); }
button { font:inherit; font-weight:600; cursor:pointer; border-radius:10px; padding:.625rem 1rem; width:100%;
  border:1px solid var(--primary); background:var(--primary); color:var(--on-primary); }
button:hover { background:var(--primary-hover); border-color:var(--primary-hover); }
button.secondary { background:transparent; color:var(--primary); }
button.secondary:hover { background:var(--muted-surface); }
:focus-visible { outline:3px solid var(--focus); outline-offset:2px; }
.alert { background:var(--danger-soft); color:var(--danger); border:1px solid var(--danger); border-radius:10px;
  padding:.75rem 1rem; margin:0 0 1rem; font-weight:600; }
.stack { display:grid; gap:.75rem; }
.demo { margin-top:1.5rem; }
.cancel { margin:.75rem 0 0; }
.demo ul { list-style:none; margin:0; padding:0; display:grid; gap:.75rem; }
.demo li { border:1px solid var(--border); border-radius:10px; padding:.75rem; background:var(--muted-surface); }
.demo dl { display:grid; grid-template-columns:auto 1fr; gap:.125rem .75rem; margin:.25rem 0 .75rem; font-size:.875rem; }
.demo dt { color:var(--muted); }
.demo dd { margin:0; font-family:ui-monospace,'SFMono-Regular',Menlo,Consolas,monospace; overflow-wrap:anywhere; }
.demo form { margin:0; }
`;

function page(title: string, body: string, script?: string, language: PageLanguage = 'en'): RenderedPage {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Wayfare</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header><div class="brand">Wayfare <span>${WORDS[language].brand}</span></div></header>
<main>
${body}
</main>
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    ...(script ? [`script-src 'nonce-${nonce}'`] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}

export interface SignInPageOptions {
  action: string;
  abortAction: string;
  email?: string;
  demoAccounts?: readonly Account[];
  /** The page's language (pageLanguage of the browser's Accept-Language); English by default. */
  language?: PageLanguage;
  /** Whether to say that the email or password was not right. */
  wrongCredentials?: boolean;
}

/** The sign-in form: labelled inputs, the error announced and tied to the fields, demo travelers listed in demo mode. */
export function renderSignInPage(options: SignInPageOptions): RenderedPage {
  const language = options.language ?? 'en';
  const words = WORDS[language];
  const action = escapeHtml(options.action);
  const message = options.wrongCredentials ? words.wrongCredentials : undefined;
  const invalid = message ? ' aria-invalid="true" aria-describedby="sign-in-error"' : '';
  const error = message
    ? `<div class="alert" role="alert" id="sign-in-error">${escapeHtml(message)}</div>`
    : '';
  const demo =
    options.demoAccounts && options.demoAccounts.length > 0
      ? `<section class="card demo" aria-labelledby="demo-heading">
<h2 id="demo-heading">${words.demoTravelers}</h2>
<p>${words.demoIntro}</p>
<ul>
${options.demoAccounts
  .map(
    (account) => `<li>
<strong>${escapeHtml(account.name)}</strong>${account.description ? ` · ${escapeHtml(account.description[language])}` : ''}
<dl><dt>${words.email}</dt><dd>${escapeHtml(account.email)}</dd><dt>${words.password}</dt><dd>${escapeHtml(account.password)}</dd></dl>
<form method="post" action="${action}">
<input type="hidden" name="email" value="${escapeHtml(account.email)}">
<input type="hidden" name="password" value="${escapeHtml(account.password)}">
<button type="submit" class="secondary">${escapeHtml(words.signInAs(account.name))}</button>
</form>
</li>`,
  )
  .join('\n')}
</ul>
</section>`
      : '';
  return page(
    words.signIn,
    `<div class="card">
<h1>${words.signIn}</h1>
<p>${words.intro}</p>
${error}
<form method="post" action="${action}" novalidate>
<label for="email">${words.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required${message ? '' : ' autofocus'} value="${escapeHtml(options.email ?? '')}"${invalid}>
<label for="password">${words.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${message ? ' autofocus' : ''}${invalid}>
<div class="stack">
<button type="submit">${words.signIn}</button>
</div>
</form>
<form method="post" action="${escapeHtml(options.abortAction)}" class="cancel">
<button type="submit" class="secondary">${words.cancel}</button>
</form>
</div>
${demo}`,
    undefined,
    language,
  );
}

/** RP-initiated logout confirmation; `form` is oidc-provider's hidden form carrying its xsrf token. */
export function renderLogoutPage(form: string): RenderedPage {
  return page(
    'Sign out',
    `<div class="card">
<h1>Sign out of Wayfare?</h1>
<p>You will be signed out on this device.</p>
${form}
<div class="stack">
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>
</div>
</div>`,
  );
}

/**
 * Sign-out the app asked for on the traveler's behalf: the form confirms itself (a no-script browser gets
 * one Continue button), so the traveler who pressed Sign out in the app is not asked a second time.
 */
export function renderSigningOutPage(form: string): RenderedPage {
  return page(
    'Signing out',
    `<div class="card" role="status">
<h1>Signing you out…</h1>
<p>You are being signed out of Wayfare on this device.</p>
${form}
<noscript><button type="submit" form="op.logoutForm" name="logout" value="yes">Continue</button></noscript>
</div>`,
    `const form = document.getElementById('op.logoutForm');
const confirm = document.createElement('input');
confirm.type = 'hidden';
confirm.name = 'logout';
confirm.value = 'yes';
form.append(confirm);
form.submit();`,
  );
}

export function renderMessagePage(title: string, message: string): RenderedPage {
  return page(
    title,
    `<div class="card" role="status">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</div>`,
  );
}
