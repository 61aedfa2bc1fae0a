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

function commitField(counts, index, input) {
  const row = counts.rows[index];
  const text = row.field.value.trim();
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value > counts.max) {
    // Refused by name, the value kept: nothing is sent for a count that cannot be one.
    row.note.textContent = counts.refusal;
    row.field.setAttribute("aria-invalid", "true");
    row.field.value = String(counts.values[index]);
    return;
  }
  row.note.textContent = "";
  row.field.removeAttribute("aria-invalid");
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
      row.note.textContent = "";
      row.field.removeAttribute("aria-invalid");
      input.send();
    });
    row.field.addEventListener("change", () => commitField(counts, index, input));
    row.field.addEventListener("keydown", (event) => {
      if (event.key === "Enter") commitField(counts, index, input);
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
  }
  counts.max = spec.max;
  counts.refusal = spec.refusal;
  spec.inputs.forEach((item, index) => {
    const row = counts.rows[index];
    const value = counts.values[index];
    row.label.textContent = item.label;
    row.field.setAttribute("aria-label", item.field_label);
    row.field.setAttribute("aria-describedby", row.note.id);
    row.field.max = String(spec.max);
    row.slider.max = String(item.slider_max);
    // The slider's range is Python's (it widens past a typed count); until it arrives, a count
    // past the end shows the slider at its end.
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
