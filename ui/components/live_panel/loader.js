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

export default function (component) {
  bundle = bundle || import(bundleUrl());
  bundle.then((module) => module.render(component));
}
