// The parts of the travel API contract that reach the SPA unchanged through the BFF.
export { UpdateCheckSchema } from '../upstream/app-update.ts';
