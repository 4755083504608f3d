/**
 * The style sheet and the script of `report.html`, inlined into the one file: no CDN, no web
 * fonts, no external script. The page's Content-Security-Policy allows exactly these two by hash,
 * so a report opened anywhere loads nothing from anywhere.
 *
 * The script only filters: it reads `data-status`, `data-area` and `data-rule` attributes and hides
 * what does not match. It never touches report data as HTML. Without it, everything is shown.
 */

export const REPORT_CSS = `
:root { --fg: #1d2127; --muted: #5b6470; --line: #d8dde3; --bg: #ffffff; --soft: #f4f6f8;
  --pass: #1a7f37; --fail: #c62828; --warn: #9a6700; --err: #8250df; --skip: #6e7781; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; padding: 0 20px 40px; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 10px;
  overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 6px 0; }
header.verdict { color: #fff; padding: 18px 20px; }
header.verdict h1 { margin: 0 0 4px; font-size: 26px; letter-spacing: .02em; }
header.verdict p { margin: 0; font-size: 15px; }
.verdict-passed { background: var(--pass); }
.verdict-failed { background: var(--fail); }
.verdict-error { background: var(--err); }
.verdict-nothing-checked { background: var(--skip); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 14px 0 0; font-size: 13px; }
dl.meta dt { opacity: .85; }
dl.meta dd { margin: 0; word-break: break-all; }
h2 { margin: 26px 0 10px; font-size: 19px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 0 0 6px; font-size: 16px; }
h4 { margin: 14px 0 4px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
nav.filters { position: sticky; top: 0; background: var(--bg); padding: 10px 0; border-bottom: 1px solid var(--line);
  display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; z-index: 1; }
nav.filters .group { display: flex; gap: 4px; flex-wrap: wrap; }
nav.filters button { font: inherit; border: 1px solid var(--line); background: var(--soft); border-radius: 14px; padding: 2px 10px; cursor: pointer; }
nav.filters button[aria-pressed="true"] { background: var(--fg); color: #fff; border-color: var(--fg); }
nav.filters select, nav.filters input { font: inherit; padding: 2px 6px; max-width: 22em; }
#shown { color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.num { text-align: right; white-space: nowrap; }
td.id, td.area { white-space: nowrap; }
.status { font-weight: 600; white-space: nowrap; }
.status-passed { color: var(--pass); } .status-failed { color: var(--fail); } .status-warning { color: var(--warn); }
.status-error { color: var(--err); } .status-skipped { color: var(--skip); }
.tag { display: inline-block; font-size: 11px; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; margin-left: 4px;
  color: var(--muted); font-weight: 600; }
.tag.new { border-color: var(--fail); color: var(--fail); }
article.rule-detail { border: 1px solid var(--line); border-left: 5px solid var(--fail); border-radius: 6px; padding: 12px 14px; margin: 14px 0; }
article.rule-detail.detail-warning { border-left-color: var(--warn); }
article.rule-detail.detail-error { border-left-color: var(--err); }
article.rule-detail .rule-text { color: var(--muted); margin: 0 0 6px; }
article.rule-detail .reason { font-weight: 600; margin: 0 0 6px; }
table.checks td { font-size: 13px; }
table.checks td.ok { color: var(--pass); } table.checks td.bad { color: var(--fail); font-weight: 600; }
details.exchange { border: 1px solid var(--line); border-radius: 6px; margin: 6px 0; }
details.exchange > summary { cursor: pointer; padding: 6px 10px; background: var(--soft);
  font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
details.exchange.judged > summary { font-weight: 700; }
details.exchange .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; padding: 0 10px 8px; }
@media (max-width: 800px) { details.exchange .pair { grid-template-columns: 1fr; } }
.vars { margin: 4px 0; padding-left: 20px; }
.muted { color: var(--muted); }
figure.screenshot { margin: 8px 0; }
figure.screenshot img { max-width: 100%; border: 1px solid var(--line); border-radius: 6px; }
figure.screenshot figcaption { color: var(--muted); font-size: 12px; }
footer { color: var(--muted); font-size: 12px; margin-top: 30px; }
`;

export const REPORT_JS = `
(function () {
  var state = { status: 'all', area: 'all', text: '' };
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-rule]'));
  var rows = items.filter(function (el) { return el.tagName === 'TR'; });
  var buttons = Array.prototype.slice.call(document.querySelectorAll('[data-filter-status]'));
  var area = document.getElementById('filter-area');
  var text = document.getElementById('filter-text');
  var shown = document.getElementById('shown');
  function matches(el) {
    if (state.status !== 'all' && el.getAttribute('data-status') !== state.status) return false;
    if (state.area !== 'all' && el.getAttribute('data-area') !== state.area) return false;
    if (state.text !== '' && el.textContent.toLowerCase().indexOf(state.text) < 0) return false;
    return true;
  }
  function apply() {
    var count = 0;
    items.forEach(function (el) {
      var ok = matches(el);
      el.hidden = !ok;
      if (ok && el.tagName === 'TR') count++;
    });
    buttons.forEach(function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-filter-status') === state.status)); });
    shown.textContent = count + ' of ' + rows.length + ' rules shown';
  }
  buttons.forEach(function (b) {
    b.addEventListener('click', function () { state.status = b.getAttribute('data-filter-status'); apply(); });
  });
  area.addEventListener('change', function () { state.area = area.value; apply(); });
  text.addEventListener('input', function () { state.text = text.value.trim().toLowerCase(); apply(); });
  apply();
})();
`;
