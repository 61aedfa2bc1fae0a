// The sections below the live panel follow it: the panel's loader announces, once it has drawn,
// which inputs it was drawn for ("mcnemar-live-drawn"); when these sections were drawn for
// other inputs (a count or the log axis moved, which reruns the panel's fragment alone), this
// element raises a trigger, which reruns their fragment. It draws nothing and computes nothing.
//
// It is drawn at the start of every run of those sections (its data carries the run's number),
// so each drawing says: a run for these inputs is under way, and it answers whatever was asked
// before it. Between two drawings it asks at most once for the same inputs. A request can still
// come to nothing (it can travel with the panel's own rerun when both leave the browser at
// once): if the sections are still not drawn for the panel's inputs a few seconds after asking,
// it asks again, three times at most, waiting longer each time.
const AGAIN_AFTER_MS = [4000, 8000, 16000];
const follower = (window.__mcnemarFollower ??= { drawnFor: null, asked: null, trigger: null });

function ask(drawn, again) {
  follower.asked = drawn;
  clearTimeout(follower.timer);
  if (again < AGAIN_AFTER_MS.length) {
    follower.timer = setTimeout(() => {
      if (!follower.element?.isConnected) return; // the page was left
      const behind = window.__mcnemarLiveDrawn === drawn && follower.drawnFor !== drawn;
      if (behind && follower.asked === drawn) ask(drawn, again + 1);
    }, AGAIN_AFTER_MS[again]);
  }
  follower.trigger("behind", drawn);
}

function follow(drawn) {
  if (drawn === undefined || drawn === null) return;
  if (drawn === follower.drawnFor || drawn === follower.asked) return;
  ask(drawn, 0);
}

export default function ({ data: sent, parentElement, setTriggerValue }) {
  // Its data comes inside a list of one, as the panel's does (loader.js says why).
  const data = Array.isArray(sent) ? sent[0] : sent;
  follower.drawnFor = data.inputs;
  follower.asked = null; // answered by this run, or overtaken by it
  follower.element = parentElement;
  follower.trigger = setTriggerValue;
  if (!follower.listening) {
    follower.listening = true;
    window.addEventListener("mcnemar-live-drawn", (event) => follow(event.detail));
  }
  // The panel may have drawn other inputs while these sections were being drawn.
  follow(window.__mcnemarLiveDrawn);
}
