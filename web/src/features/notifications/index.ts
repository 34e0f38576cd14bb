/** What other features use of notifications: the live connection's indicator, and telling the other tabs. */
export { LiveIndicator } from './live-indicator.tsx';
export { postToOtherTabs } from './notification-channel.ts';
