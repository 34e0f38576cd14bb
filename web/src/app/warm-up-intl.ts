/**
 * The first Intl object a page makes loads the browser's locale data (ICU): about 18 ms of a laptop's
 * CPU, and four times that on a phone (Lighthouse's mobile profile), a long task wherever it falls.
 * Nearly every screen formats a date, a price or a plural as it first draws, so that cost used to land
 * inside the first render of the page. Called once the first page's loaders have sent their requests,
 * this makes an Intl object in a task of its own, while the main thread waits for the network; the
 * first render then finds the data loaded (`npm run bench -- page-cpu --long-tasks` shows the task).
 */
export function warmUpIntl(language: string): void {
  setTimeout(() => {
    new Intl.DateTimeFormat(language).format(0);
  }, 0);
}
