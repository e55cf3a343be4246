// puppeteer must never download its own Chrome: this machine kind only reaches the npm registry.
// The browser is resolved at run time (render/browser-path.ts).
module.exports = { skipDownload: true };
