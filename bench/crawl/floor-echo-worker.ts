// Hand-off-only worker of bench/crawl/floor.ts: answers with what a crawl gets back from extraction, in size (~10 KB of
// markdown, ~100 links), without extracting.
export default function echo(task: { html: string }): { markdown: string; links: string[] } {
  const links: string[] = [];
  for (
    let at = task.html.indexOf('href="');
    at !== -1 && links.length < 100;
    at = task.html.indexOf('href="', at + 6)
  ) {
    links.push(task.html.slice(at + 6, task.html.indexOf('"', at + 6)));
  }
  return { markdown: task.html.slice(0, 10_000), links };
}
