// Child process of import-cost.test.ts: imports the package entry (and, with `--extract-html`, runs
// one HTML extraction, the positive control). The recorder preloaded with `--import` prints what
// was loaded when the process exits.
await import('../../src/index.js');
if (process.argv.includes('--extract-html')) {
  const { extract } = await import('@mono-agent/extract');
  const page =
    '<html><head><title>T</title></head><body><article><h1>Title</h1><p>Some words.</p></article></body></html>';
  await extract({
    body: new TextEncoder().encode(page),
    url: 'https://example.com/',
    contentType: 'text/html',
  });
}
