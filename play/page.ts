import { html, inlineElement } from '../core/html-escape.ts';
import { PLAY_CSP } from './server.ts';

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#f4f5f7}
header{background:#223;color:#fff;padding:8px 18px;display:flex;gap:18px;align-items:baseline;flex-wrap:wrap}
header h1{font-size:17px;margin:0} #status{font-weight:600} .st-waiting #status{color:#9fe29f} .st-failed #status,.st-stopped #status{color:#ffb4b4}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(360px,2fr);gap:14px;padding:14px 18px}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin-bottom:12px}
h2{font-size:14px;margin:2px 0 8px;text-transform:uppercase;letter-spacing:.04em;color:#444}
figure{margin:0 0 10px} figure img{display:block;max-width:100%;height:auto;border:1px solid #ccc} figcaption{font-size:12px;color:#444}
pre,.text{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border-radius:4px;padding:6px 8px;margin:4px 0;font:13px/1.4 ui-monospace,monospace}
.tool{border:1px solid #e2e2e2;border-radius:6px;padding:6px 8px;margin:6px 0} .tool h3{font-size:14px;margin:0}
.tool .desc{font-size:12px;color:#555;margin:2px 0 6px} .field{margin:4px 0;display:flex;gap:6px;align-items:center;flex-wrap:wrap}
.field>label{min-width:90px;font-size:12px;color:#333} .choice button{min-width:34px;margin:1px} .choice button[aria-pressed=true]{background:#2d6cdf;color:#fff;border-color:#2d6cdf}
input[type=number]{width:90px} textarea{width:100%;box-sizing:border-box;font:13px system-ui,sans-serif}
button{font:13px system-ui,sans-serif;padding:3px 10px;border:1px solid #999;border-radius:4px;background:#fafafa;cursor:pointer} button:disabled{opacity:.5;cursor:default}
button.primary{background:#2d6cdf;color:#fff;border-color:#2d6cdf;font-weight:600;padding:6px 16px}
.error{color:#a31515;font-size:12px} ul.problems{color:#a31515} #queue li{margin:2px 0} #queue code{font-size:12px}
.turn{border-top:1px solid #eee;padding:6px 0} .r-violation{color:#a31515} .r-invalid{color:#b26a00} .r-not-run{color:#888}
#outcome{border:2px solid #2e7d32;background:#eef8ee} #outcome.unsolved{border-color:#b26a00;background:#fff7ea}
.muted{color:#666;font-size:12px}
`;

/**
 * The play page: a static shell whose script fetches the state from the server and builds
 * everything with DOM calls (text only ever as text). `instanceId` is escaped into the title.
 */
export function playPageHtml(script: string, instanceId: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PLAY_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SpaceAct play: ${instanceId}</title>
${inlineElement('style', STYLE)}
</head><body class="st-starting">
<header><h1 id="title">SpaceAct play: ${instanceId}</h1><span id="turn-info"></span><span id="status">loading…</span></header>
<main>
<div id="left">
<section id="outcome" hidden></section>
<section><h2>What you see now</h2><div id="images"></div></section>
<section id="prev-section" hidden><details><summary>Pictures of the previous turn (kept in the history a model gets)</summary><div id="prev-images"></div></details></section>
<section><h2>History</h2><div id="history"></div></section>
<section><details><summary>The text a model gets this turn</summary><pre id="prompt"></pre></details></section>
</div>
<div id="right">
<section><h2>Task</h2><div id="task-title"></div><pre id="rules"></pre><ul id="conditions"></ul><div id="plan-box" hidden><h2>Reference plan</h2><pre id="plan"></pre></div><div id="state-box" hidden><h2>Exact state</h2><pre id="state"></pre></div><div id="extra-box" hidden><h2>Read-out</h2><pre id="extra"></pre></div></section>
<section id="turn-section"><h2>Your turn</h2>
<div id="tools"></div>
<h2>Calls this turn <span id="cap" class="muted"></span></h2><ol id="queue"></ol>
<label for="rationale">Rationale (what you see and why)</label><textarea id="rationale" rows="3"></textarea>
<div id="note-box"><label for="note">Note (your memory; replaces the previous one)</label><textarea id="note" rows="3"></textarea></div>
<p><button type="button" id="submit" class="primary">Submit turn</button> <button type="button" id="give-up">Give up</button></p>
<ul id="problems" class="problems"></ul>
</section>
</div>
</main>
${inlineElement('script', script)}
</body></html>
`.text;
}
