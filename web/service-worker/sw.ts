// The one service worker of the app (served as /sw.js): the offline trip pack, then the Web Push alerts.
import './offline-cache.ts';
import './push-alerts.js';
