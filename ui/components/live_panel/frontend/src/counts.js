// The table's four counts (a, b, c, d), each a slider for demonstrations beside an exact number
// field, drawn by the panel itself. Moving one sets the panel's own state ("counts"), which
// reruns the panel's fragment alone; Python computes every figure from it and sends them back.
//
// Who owns the counts: Python sends the counts it holds with an "origin", a number it changes
// only when it sets the counts itself (a worked example, a table opened from data, the first
// run from the URL). The panel takes Python's counts whenever the origin is new, and otherwise
// keeps the user's own, which may be ahead of the figures still on their way. Each change the
// user makes is sent with the origin it was made on and a sequence number, so Python can tell
// a change made before it set the counts (and drop it) from a new one.
//
// Every string is set as text (textContent, attributes): a system's name shows as it was typed.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function makeRow(key, idPrefix) {
  const row = element("div", "lp-count");
  row.dataset.count = key;
  const label = element("label", "lp-count-label");
  const slider = element("input", "lp-count-slider");
  slider.type = "range";
  slider.id = `${idPrefix}-${key}-slider`;
  slider.min = "0";
  slider.step = "1";
  label.htmlFor = slider.id;
  const field = element("input", "lp-count-field");
  field.type = "number";
  field.min = "0";
  field.step = "1";
  field.inputMode = "numeric";
  const note = element("p", "lp-count-note");
  note.id = `${idPrefix}-${key}-note`;
  note.setAttribute("aria-live", "polite");
  const line = element("div", "lp-count-line");
  line.append(slider, field);
  row.append(label, line, note);
  return { row, label, slider, field, note };
}

function refuse(row, typed, kept) {
  // Said beside the field, naming what was typed and the count that stays (Python's words,
  // with the two values put in as text). Emptied first, so that the same refusal twice is
  // announced twice by a screen reader (the note is a live region).
  const words = refusalWords.get(row);
  clearNote(row);
  row.field.setAttribute("aria-invalid", "true");
  const token = row.noteToken;
  setTimeout(() => {
    if (row.noteToken !== token) return; // cleared or refused again since
    row.note.textContent = words.replace("{count}", String(kept)).replace("{value}", typed);
  }, 50);
}

function clearNote(row) {
  row.noteToken = (row.noteToken || 0) + 1;
  row.note.textContent = "";
  row.field.removeAttribute("aria-invalid");
}

const refusalWords = new WeakMap();

function commitField(counts, index, input) {
  const row = counts.rows[index];
  const typed = row.field.value;
  // The browser gives "" for what a number field cannot read ("abc", " 7 "): say what is
  // there, or that the field was empty.
  const text = typed.trim();
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value > counts.max) {
    // Refused by name, the count kept: nothing is sent for a count that cannot be one.
    refusalWords.set(row, text === "" ? counts.refusal_empty : counts.refusal);
    refuse(row, text, counts.values[index]);
    row.field.value = String(counts.values[index]);
    return;
  }
  clearNote(row);
  if (value === counts.values[index]) return;
  counts.values[index] = value;
  row.slider.value = String(Math.min(value, Number(row.slider.max)));
  input.send();
}

function build(holder, spec, counts, input) {
  const idPrefix = `lp-${Math.random().toString(36).slice(2, 8)}`;
  counts.rows = spec.inputs.map((item) => makeRow(item.key, idPrefix));
  counts.rows.forEach((row, index) => {
    row.slider.addEventListener("input", () => {
      const value = Number(row.slider.value);
      counts.values[index] = value;
      row.field.value = String(value);
      clearNote(row);
      input.send();
    });
    // While the slider is dragged its range stays as it was: a range narrowed under the
    // pointer would move the value the pointer stands on.
    row.slider.addEventListener("pointerdown", () => {
      row.dragging = true;
      const release = () => {
        row.dragging = false;
        window.removeEventListener("pointerup", release);
        window.removeEventListener("pointercancel", release);
        if (row.pendingMax !== undefined) row.slider.max = row.pendingMax;
        row.slider.value = String(counts.values[index]);
      };
      window.addEventListener("pointerup", release);
      window.addEventListener("pointercancel", release);
    });
    row.field.addEventListener("change", () => commitField(counts, index, input));
    row.field.addEventListener("keydown", (event) => {
      if (event.key === "Enter") commitField(counts, index, input);
      // The field's arrow keys step the count at once, as its slider's do.
      if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        setTimeout(() => commitField(counts, index, input), 0);
      }
    });
  });
  holder.replaceChildren(...counts.rows.map((row) => row.row));
}

// Draw the count inputs from `spec` (the payload's "counts"); `counts` is the panel's memory of
// them, `input.send()` sends the current values as the panel's state.
export function drawCounts(holder, spec, counts, input) {
  if (!counts.rows) build(holder, spec, counts, input);
  if (spec.origin !== counts.origin) {
    counts.origin = spec.origin;
    counts.values = spec.values.slice();
    (counts.rows || []).forEach(clearNote); // the page's counts replace what was typed
  }
  counts.max = spec.max;
  counts.refusal = spec.refusal;
  counts.refusal_empty = spec.refusal_empty;
  spec.inputs.forEach((item, index) => {
    const row = counts.rows[index];
    const value = counts.values[index];
    row.label.textContent = item.label;
    row.field.setAttribute("aria-label", item.field_label);
    row.field.setAttribute("aria-describedby", row.note.id);
    row.field.max = String(spec.max);
    // The slider's range is Python's (it widens past a typed count); until it arrives, a count
    // past the end shows the slider at its end. Not while it is dragged (see build).
    row.pendingMax = String(item.slider_max);
    if (row.dragging) return;
    row.slider.max = row.pendingMax;
    if (Number(row.slider.value) !== value) row.slider.value = String(value);
    if (document.activeElement !== row.field && row.field.value !== String(value)) {
      row.field.value = String(value);
    }
  });
}

// The state sent to Python: the counts as shown, the origin they were made on, a sequence.
export function countsState(counts) {
  counts.seq = (counts.seq || 0) + 1;
  return { values: counts.values.slice(), origin: counts.origin, seq: counts.seq };
}
