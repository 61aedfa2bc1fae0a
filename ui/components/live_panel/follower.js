// The sections below the live panel follow it: the panel's loader announces, once it has drawn,
// which inputs it was drawn for ("mcnemar-live-drawn"); when these sections were drawn for
// other inputs (a count or the log axis moved, which reruns the panel's fragment alone), this
// element raises a trigger, which reruns their fragment. It draws nothing and computes nothing.
// Each drawing of the panel raises at most one rerun ("asked"): this element may be drawn again
// with its old data while the rerun it asked for runs, and must not ask twice for the same
// inputs.
const follower = (window.__mcnemarFollower ??= { drawnFor: null, asked: null, trigger: null });

function follow(drawn) {
  if (drawn === undefined || drawn === null) return;
  if (drawn === follower.drawnFor || drawn === follower.asked) return;
  follower.asked = drawn;
  follower.trigger("behind", drawn);
}

export default function ({ data, setTriggerValue }) {
  follower.drawnFor = data.inputs;
  follower.trigger = setTriggerValue;
  if (!follower.listening) {
    follower.listening = true;
    window.addEventListener("mcnemar-live-drawn", (event) => follow(event.detail));
  }
  // The panel may have drawn newer inputs while these sections were being drawn.
  follow(window.__mcnemarLiveDrawn);
}
