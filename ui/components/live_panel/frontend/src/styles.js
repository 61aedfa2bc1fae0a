// The panel's styles, added to the page once. Colours and fonts are the theme's (the CSS
// custom properties Streamlit gives a component: --st-text-color, --st-font, ...); the
// marked cells keep the colours the table always had (a dark gold border on pale yellow).
export const CSS = `
.lp {
  color: var(--st-text-color); font-family: var(--st-font);
  display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 3rem;
}
.lp-count { margin: 0 0 1rem; }
.lp-count-label { display: block; font-size: 0.875rem; margin-bottom: 0.25rem; }
.lp-count-line { display: flex; gap: 0.75rem; align-items: center; }
.lp-count-slider { flex: 3 1 0; min-width: 0; accent-color: var(--st-primary-color); }
.lp-count-field {
  flex: 2 1 0; min-width: 0; font: inherit; color: inherit; padding: 0.4rem 0.5rem;
  background: var(--st-secondary-background-color, #f0f2f6);
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  border-radius: var(--st-base-radius, 0.5rem);
}
.lp-count-field[aria-invalid="true"] { border-color: #b00020; }
.lp-count-note { margin: 0.25rem 0 0; font-size: 0.875rem; color: #b00020; }
.lp-count-note:empty { margin: 0; }
.lp-table { border-collapse: collapse; font-size: 1.35rem; margin: 0.3em 0; }
.lp-table th, .lp-table td {
  padding: 0.4em 0.8em; border: 1px solid #999; text-align: center;
}
.lp-table th { font-weight: 600; background: var(--st-secondary-background-color, #f2f2f2); }
.lp-table td.lp-discordant {
  background: #ffe8a3; border: 3px solid #b8860b; font-weight: 700; color: #111111;
}
.lp-summary { margin: 0.5rem 0 1rem; line-height: 1.6; }
.lp-cards { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1rem; }
.lp-card {
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  border-radius: var(--st-base-radius, 0.5rem); padding: 1rem; min-width: 0;
}
.lp-card-label { font-size: 0.875rem; margin: 0 0 0.25rem; overflow-wrap: anywhere; }
.lp-card-value { font-size: 2.25rem; line-height: 1.2; margin: 0 0 0.25rem; }
.lp-card-caption {
  font-size: 0.875rem; margin: 0; opacity: 0.75; overflow-wrap: anywhere;
}
.lp-chart { margin-top: 1.25rem; width: 100%; }
.lp-page-chart { width: 100%; }
.lp-present .lp-card-caption { display: none; }
.lp-present .lp-card-value { font-size: 2.6rem; }
.lp-present .lp-chart { zoom: 0.8; }
@media (max-width: 640px) {
  .lp { grid-template-columns: minmax(0, 1fr); gap: 1rem; }
  .lp-cards { grid-template-columns: minmax(0, 1fr); }
}
`;

let added = false;

export function addStyles() {
  if (added) return;
  const style = document.createElement("style");
  style.dataset.livePanel = "";
  style.textContent = CSS;
  document.head.appendChild(style);
  added = true;
}
