// The p-value chart: Altair's Vega-Lite layout and its rows, both from Python, drawn with
// vega-embed (bundled: nothing is fetched). While the layout stays the same (a new count, the
// same axis and title), the new rows are swapped into the drawn chart instead of drawing it
// anew, as Streamlit's own charts do.
import embed from "vega-embed";

function themeConfig(holder) {
  const style = getComputedStyle(holder);
  const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const text = read("--st-text-color", "#111111");
  const font = read("--st-font", "sans-serif");
  const grid = read("--st-border-color", "#e6e9ef");
  return {
    font,
    background: null,
    view: { stroke: null },
    axis: {
      labelColor: text, titleColor: text, gridColor: grid, domainColor: grid, tickColor: grid,
      labelFont: font, titleFont: font, labelFontSize: 12, titleFontSize: 12,
      titleFontWeight: "normal",
    },
    legend: { labelColor: text, titleColor: text, labelFont: font, titleFont: font },
    title: { color: text, subtitleColor: text, font, subtitleFont: font, anchor: "start" },
  };
}

export async function drawChart(holder, chart, state) {
  if (!chart) {
    holder.replaceChildren();
    holder.removeAttribute("role");
    holder.removeAttribute("aria-label");
    state.layout = null;
    return;
  }
  const spec = JSON.parse(chart.layout);
  holder.setAttribute("role", "img");
  holder.setAttribute("aria-label", chart.label);
  if (state.view && state.layout === chart.layout) {
    for (const [name, rows] of Object.entries(chart.datasets)) {
      state.view.data(name, rows);
    }
    await state.view.runAsync();
    return;
  }
  if (state.view) state.view.finalize();
  spec.datasets = chart.datasets;
  spec.width = "container";
  // "fit": the spec's height is the whole chart's, axis and legend inside it (as Streamlit draws
  // a chart given a height); "fit-x" (the default): the spec's height is the plot's.
  spec.autosize = { type: chart.autosize === "fit" ? "fit" : "fit-x", contains: "padding" };
  spec.config = themeConfig(holder);
  const target = document.createElement("div");
  holder.replaceChildren(target);
  const result = await embed(target, spec, { actions: false, renderer: "svg" });
  // The drawing is one image named by the chart's description (the holder's role): its
  // parts are not announced one by one.
  result.view.container()?.setAttribute("aria-hidden", "true");
  state.view = result.view;
  state.layout = chart.layout;
}
