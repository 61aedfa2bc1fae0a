// The table, the rates in words and the result cards, drawn from the payload as text (every
// string is set with textContent: a name such as "<img ...>" shows as it was typed).

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function drawTable(holder, table) {
  const node = element("table", "lp-table");
  node.setAttribute("aria-label", table.label);
  const head = node.createTHead().insertRow();
  // The corner names no row or column: a plain cell (an empty header would be announced as
  // a nameless header).
  head.appendChild(element("td"));
  for (const name of table.columns) {
    const th = element("th", "", name);
    th.scope = "col";
    head.appendChild(th);
  }
  const body = node.createTBody();
  table.rows.forEach((name, i) => {
    const row = body.insertRow();
    const th = element("th", "", name);
    th.scope = "row";
    row.appendChild(th);
    for (const cell of table.cells[i]) {
      const td = element("td", cell.discordant ? "lp-discordant" : "", cell.text);
      if (cell.discordant) td.dataset.discordant = "";
      row.appendChild(td);
    }
  });
  holder.replaceChildren(node);
}

export function drawSummary(holder, summary) {
  if (!summary) {
    holder.replaceChildren();
    return;
  }
  holder.replaceChildren(
    element("strong", "", summary.rates),
    document.createTextNode(" " + summary.discordant),
  );
}

export function drawCards(holder, cards) {
  holder.replaceChildren(
    ...cards.map((card) => {
      const node = element("div", "lp-card");
      node.dataset.card = card.key;
      node.append(
        element("p", "lp-card-label", card.label),
        element("p", "lp-card-value", card.value),
        element("p", "lp-card-caption", card.caption),
      );
      return node;
    }),
  );
}
