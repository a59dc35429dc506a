// What every panel of the console shares: element lookup, text output, times and calls to the
// console server, kept in one module so each panel reads the page the same way.

export const byId = (id) => document.getElementById(id);
export const text = (id, value) => {
  byId(id).textContent = value;
};
export const timeOf = (epochMs) => new Date(epochMs).toLocaleTimeString();

export async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const value = await response.json();
  if (!response.ok) throw new Error(value.error ?? `HTTP ${response.status}`);
  return value;
}

export function cell(row, value) {
  const element = row.insertCell();
  element.textContent = value;
  return element;
}

/** A cell that carries its column's name, shown beside the value when the table is stacked. */
export function labelled(row, label, value) {
  const element = cell(row, value);
  element.dataset.label = label;
  return element;
}
