/**
 * Time inputs that show and take UTC in the API's own form, `YYYY-MM-DD HH:MM:SS`: a text field, because
 * `datetime-local` displays the browser's locale format (`mm/dd/yyyy, hh:mm AM`) whatever its label says.
 */
import { h } from './dom';

/** What the field accepts: a date, optionally a time to the minute or second, `T` or a space between. */
const ACCEPTED = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?)?$/;
/** The same as an HTML `pattern` (anchored by the browser), so the form refuses anything else itself. */
const PATTERN = String.raw`\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2})?)?`;

/** `2026-11-21` → `2026-11-21 00:00:00`, `2026-11-21T10:00` → `2026-11-21 10:00:00`; undefined when unreadable. */
export function toApiTime(text: string): string | undefined {
  const match = ACCEPTED.exec(text.trim());
  if (!match) return undefined;
  const [, date, time = '00:00', seconds = ':00'] = match;
  return `${date} ${time}${seconds}`;
}

/** A UTC time field holding `value` (the API's form), named `name`. */
export function utcTimeInput(name: string, value: string, label?: string): HTMLInputElement {
  return h('input', {
    name,
    type: 'text',
    value,
    pattern: PATTERN,
    placeholder: 'YYYY-MM-DD HH:MM:SS',
    inputmode: 'numeric',
    autocomplete: 'off',
    spellcheck: false,
    title: 'UTC, as YYYY-MM-DD HH:MM:SS (the time may be left out)',
    class: 'mono time',
    'aria-label': label,
  });
}
