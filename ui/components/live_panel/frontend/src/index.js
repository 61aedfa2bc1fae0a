// The calculator page's live panel (a Streamlit custom component v2): the 2 x 2 table with its
// marked cells, the rates in words, the four result cards and the p-value chart, drawn from
// one payload that Python computes. The browser computes no statistic and sends nothing back:
// the panel has no state or trigger values, so it never raises a rerun.
import { drawChart } from "./chart.js";
import { drawCards, drawSummary, drawTable } from "./panel.js";
import { addStyles } from "./styles.js";

const panels = new WeakMap();

function mount(parent) {
  const root = document.createElement("div");
  root.className = "lp";
  const parts = {
    root,
    table: document.createElement("div"),
    summary: document.createElement("p"),
    cards: document.createElement("div"),
    chart: document.createElement("div"),
    chartState: { view: null, layout: null },
    drawing: Promise.resolve(),
  };
  parts.summary.className = "lp-summary";
  parts.cards.className = "lp-cards";
  parts.chart.className = "lp-chart";
  root.append(parts.table, parts.summary, parts.cards, parts.chart);
  parent.appendChild(root);
  return parts;
}

export function render(component) {
  const { data, parentElement } = component;
  if (!data) return;
  addStyles();
  let parts = panels.get(parentElement);
  if (!parts || !parts.root.isConnected) {
    parts = mount(parentElement);
    panels.set(parentElement, parts);
  }
  parts.root.classList.toggle("lp-present", Boolean(data.present));
  drawTable(parts.table, data.table);
  drawSummary(parts.summary, data.summary);
  drawCards(parts.cards, data.cards);
  // Charts are drawn one after the other, so that a quick second press never races the first.
  parts.drawing = parts.drawing
    .then(() => drawChart(parts.chart, data.chart, parts.chartState))
    .catch((error) => console.error("live panel chart:", error));
}
