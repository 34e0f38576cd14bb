import { z } from 'zod';

/**
 * POST /auth/logout: the BFF session has ended; the SPA navigates to `redirectTo`: the identity
 * platform's end-session page after a traveler session (it returns to the app's home page), else `/`.
 */
export const LogoutResponseSchema = z.object({ redirectTo: z.string().min(1) });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;
