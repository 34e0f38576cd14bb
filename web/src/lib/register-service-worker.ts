/**
 * Registers the app's service worker (/sw.js: the offline trip pack and Web Push alerts) once the page
 * has loaded, so installing it never competes with the first render. Without service workers (an
 * insecure origin, a browser setting) the app works as before, online only.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
