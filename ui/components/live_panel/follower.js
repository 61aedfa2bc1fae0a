// The sections below the live panel follow it: the panel's loader announces, once it has drawn,
// which inputs it was drawn for ("mcnemar-live-drawn"); when these sections were drawn for
// other inputs (a count or the log axis moved, which reruns the panel's fragment alone), this
// element raises a trigger, which reruns their fragment. It draws nothing and computes nothing.
//
// This element is the last of those sections, so it is drawn for the new inputs only once all
// of them are. Each drawing of the panel raises one rerun ("asked"): this element may be drawn
// again with its old data while the rerun it asked for runs, and must not ask twice for the
// same inputs. But a run can be cut short by a newer one before it reaches this element, and
// then nothing else would ask: if the sections are still not drawn for the panel's inputs a
// few seconds after asking, it asks again (a few times at most).
const AGAIN_AFTER_MS = 4000;
const MAX_AGAIN = 3;
const follower = (window.__mcnemarFollower ??= { drawnFor: null, asked: null, trigger: null });

function ask(drawn, again) {
  follower.asked = drawn;
  follower.trigger("behind", drawn);
  clearTimeout(follower.timer);
  follower.timer = setTimeout(() => {
    const behind = window.__mcnemarLiveDrawn === drawn && follower.drawnFor !== drawn;
    if (behind && follower.asked === drawn && again < MAX_AGAIN) ask(drawn, again + 1);
  }, AGAIN_AFTER_MS);
}

function follow(drawn) {
  if (drawn === undefined || drawn === null) return;
  if (drawn === follower.drawnFor || drawn === follower.asked) return;
  ask(drawn, 0);
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
