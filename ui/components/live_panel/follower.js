// The sections below the live panel follow it: the panel's loader announces, once it has drawn,
// which inputs it was drawn for ("mcnemar-live-drawn"); when these sections were drawn for
// other inputs (a count or the log axis moved, which reruns the panel's fragment alone), this
// element raises a trigger, which reruns their fragment. It draws nothing and computes nothing.
//
// The trigger waits a little (WAIT_MS) after the drawing: a rerun sends every input's value as
// the browser holds it, and Streamlit's browser side takes a moment to take in the values that
// Python set in the panel's run (the slider that follows a typed count, and the field that
// follows a slider). Asked at once, the rerun carried a count's old value back and undid it
// (tests/browser/test_page.py::test_typing_a_number_moves_its_slider); 30 ms was enough here.
// Each drawing raises at most one rerun ("asked"): this element may be drawn again with its
// old data while the rerun it asked for runs, and must not ask twice for the same inputs.
const WAIT_MS = 100;
const follower = (window.__mcnemarFollower ??= {
  drawnFor: null,
  asked: null,
  trigger: null,
  timer: null,
});

function follow() {
  follower.timer = null;
  const drawn = window.__mcnemarLiveDrawn;
  if (drawn === undefined || drawn === null) return;
  if (drawn === follower.drawnFor || drawn === follower.asked) return;
  follower.asked = drawn;
  follower.trigger("behind", drawn);
}

function schedule() {
  if (follower.timer !== null) clearTimeout(follower.timer);
  follower.timer = setTimeout(follow, WAIT_MS);
}

export default function ({ data, setTriggerValue }) {
  follower.drawnFor = data.inputs;
  follower.trigger = setTriggerValue;
  if (!follower.listening) {
    follower.listening = true;
    window.addEventListener("mcnemar-live-drawn", schedule);
  }
  // The panel may have drawn newer inputs while these sections were being drawn.
  schedule();
}
