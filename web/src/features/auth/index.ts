/** What other features use of sign-in; the app shell and the router import the rest directly. */
export { SignInButton } from './sign-in-button.tsx';
