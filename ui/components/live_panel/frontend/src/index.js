// The calculator page's live panel (a Streamlit custom component v2): the 2 x 2 table with its
// marked cells, the rates in words, the four result cards and the p-value chart, drawn from
// one payload that Python computes, and the four counts' inputs (counts.js). The browser
// computes no statistic: it sends back only the counts the user set (the panel's state
// "counts"), which reruns the panel's fragment. render() returns a promise that settles once
// the chart is drawn (the loader then tells the sections below: follower.js). renderChart()
// draws one of the page's other charts (the gates', the Decision's) with the same Vega, so that
// the page loads one Vega, not this one and Streamlit's.
import { drawChart } from "./chart.js";
import { countsState, drawCounts } from "./counts.js";
import { drawCards, drawSummary, drawTable } from "./panel.js";
import { addStyles } from "./styles.js";

const panels = new WeakMap();

function mount(parent) {
  const root = document.createElement("div");
  root.className = "lp";
  const inputs = document.createElement("div");
  inputs.className = "lp-inputs";
  const results = document.createElement("div");
  results.className = "lp-results";
  const parts = {
    root,
    inputs,
    counts: { origin: null, values: null, rows: null },
    component: null,
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
  results.append(parts.table, parts.summary, parts.cards, parts.chart);
  root.append(inputs, results);
  parent.appendChild(root);
  return parts;
}

// `data`: the element's data, as loader.js unwraps it.
export function render(component, data) {
  const { parentElement } = component;
  if (!data) return;
  addStyles();
  let parts = panels.get(parentElement);
  if (!parts || !parts.root.isConnected) {
    parts = mount(parentElement);
    panels.set(parentElement, parts);
  }
  parts.root.classList.toggle("lp-present", Boolean(data.present));
  parts.component = component; // the newest render's: its setStateValue is the live one
  drawCounts(parts.inputs, data.counts, parts.counts, {
    send: () => parts.component.setStateValue("counts", countsState(parts.counts)),
  });
  drawTable(parts.table, data.table);
  drawSummary(parts.summary, data.summary);
  drawCards(parts.cards, data.cards);
  // Charts are drawn one after the other, so that a quick second press never races the first.
  parts.drawing = parts.drawing
    .then(() => drawChart(parts.chart, data.chart, parts.chartState))
    .catch((error) => console.error("live panel chart:", error));
  return parts.drawing;
}

const pageCharts = new WeakMap();

export function renderChart(component, data) {
  const { parentElement } = component;
  if (!data) return undefined;
  addStyles();
  let parts = pageCharts.get(parentElement);
  if (!parts || !parts.holder.isConnected) {
    const holder = document.createElement("div");
    holder.className = "lp-page-chart";
    parentElement.appendChild(holder);
    parts = { holder, state: { view: null, layout: null }, drawing: Promise.resolve() };
    pageCharts.set(parentElement, parts);
  }
  parts.drawing = parts.drawing
    .then(() => drawChart(parts.holder, data.chart, parts.state))
    .catch((error) => console.error("page chart:", error));
  return parts.drawing;
}
