declare module 'virtual:precache-manifest' {
  /** What the build precaches: every file of the app shell, with a revision where its name has no hash. */
  const manifest: { url: string; revision: string | null }[];
  export default manifest;
}
