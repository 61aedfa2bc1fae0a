// The live panel's entry, sent with the element (so it is a few lines): it imports the built
// bundle once, from this app's own server (static/live_panel/live_panel.js, served by
// server.enableStaticServing under app/static/), and hands it each render. The base address
// is the one Streamlit's own script was loaded from, so the panel also works behind a proxy
// that serves the app under a path.
let bundle = null;

function bundleUrl() {
  const own = document.querySelector('script[src*="static/js/"]');
  const base = own
    ? own.src.slice(0, own.src.indexOf("static/js/"))
    : new URL("./", window.location.href).href;
  return base + "app/static/live_panel/live_panel.js";
}

// The element's data comes inside a list of one: Streamlit looks for a data frame in each
// value of a dict it is given, and that look imports pandas on the server, which the page
// otherwise never needs (a quarter of a second of a server's first run).
function dataOf(component) {
  return Array.isArray(component.data) ? component.data[0] : component.data;
}

export default function (component) {
  bundle = bundle || import(bundleUrl());
  const data = dataOf(component);
  // In a run of the whole page ("announce": false) the sections below are drawn by that same
  // run: say at once that these inputs are the panel's, however this element's drawing and the
  // follower's interleave, so that the follower asks nothing of them (a request sent now would
  // carry the page's inputs as the browser holds them, older than this run's).
  if (data?.announce === false) window.__mcnemarLiveDrawn = data.inputs;
  bundle.then(
    (module) => {
      // One of the page's other charts, drawn with the panel's Vega.
      if (data?.kind === "chart") return module.renderChart(component, data);
      // Once drawn, say for which inputs (the sections below follow: follower.js).
      return Promise.resolve(module.render(component, data)).then(() => {
        const inputs = data?.inputs;
        window.__mcnemarLiveDrawn = inputs;
        if (data?.announce === false) return;
        window.dispatchEvent(new CustomEvent("mcnemar-live-drawn", { detail: inputs }));
      });
    },
    (error) => {
      // Said on the page, not only in the console: the results would otherwise be missing
      // without a word (static serving off, or the bundle not built).
      const note = document.createElement("p");
      note.setAttribute("role", "alert");
      note.textContent =
        "The results panel could not load its script (app/static/live_panel/live_panel.js): " +
        String(error);
      component.parentElement.replaceChildren(note);
    },
  );
}
