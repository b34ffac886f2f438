/** Tiny DOM builders: elements are created, never parsed from strings, so no markup injection exists. */

/** A child of an element: text, a node, or nothing. */
export type Child = Node | string | number | false | null | undefined;
/** Attributes; `on<event>` keys take listeners, booleans toggle. */
export type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

function apply(el: Element, attrs: Attrs, children: readonly (Child | readonly Child[])[]): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (typeof value === 'boolean') el.toggleAttribute(name, value);
    else if (value !== undefined) el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === false || child === null || child === undefined) continue;
    el.append(typeof child === 'number' ? String(child) : child);
  }
}

/** An HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

/** An SVG element. */
export function svg(tag: string, attrs: Attrs = {}, ...children: (Child | readonly Child[])[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(el, attrs, children);
  return el;
}

/**
 * A table cell that carries its column's name (`data-label`), which narrow screens show beside the value
 * when a table of class `cards` lays each row out as a card (styles/fit.css).
 */
export function cell(
  label: string,
  attrs: Attrs = {},
  ...children: (Child | readonly Child[])[]
): HTMLElement {
  return h('td', { ...attrs, 'data-label': label }, ...children);
}

/** Replaces the children of `el`. */
export function mount(el: Element, ...children: (Child | readonly Child[])[]): void {
  el.replaceChildren();
  apply(el, {}, children);
}

/** A status badge: colour and text, so it reads without colour too. */
export function badge(status: string): HTMLElement {
  return h('span', { class: `badge s-${status}` }, status);
}

/** A pre block with a Copy button. */
export function copyable(label: string, text: string): HTMLElement {
  const pre = h('pre', { tabindex: 0, 'aria-label': label }, text);
  const note = h('span', { class: 'muted', 'aria-live': 'polite' });
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      note.textContent = 'Copied.';
    } catch {
      // No clipboard permission (e.g. plain http): select the text so Ctrl+C copies it.
      getSelection()?.selectAllChildren(pre);
      note.textContent = 'Selected: press Ctrl+C to copy.';
    }
  };
  return h(
    'div',
    { class: 'copyable' },
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', onclick: () => void copy() }, `Copy ${label}`),
      note,
    ),
    pre,
  );
}

/** A message box; `role=alert` for errors so screen readers announce them. */
export function notice(kind: 'error' | 'info' | 'ok', text: string): HTMLElement {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}
