/**
 * A test event from an account's card (manage sessions): a type's example sent to the account's webhook
 * URL now (`POST /accounts/{iban}/test-events`), and what the receiver answered.
 */
import { call, describe } from './api';
import { h, mount, notice } from './dom';

/** The answer of `POST /accounts/{iban}/test-events` (see the `TestEvent` schema). */
interface TestEventView {
  readonly type: string;
  readonly version: number;
  readonly example: string;
  readonly delivery: {
    readonly response_status: number;
    readonly response_body: string;
    readonly response_time: number;
  };
}

/** Sends a type's example to the account's URL now and shows what the receiver answered. */
export function testEventForm(account: { readonly iban: string }, status: HTMLElement): HTMLElement {
  const type = h('input', {
    type: 'text',
    name: 'type',
    required: true,
    spellcheck: 'false',
    placeholder: 'e.g. credit_transfer_status_change',
    'aria-label': `Event type of a test event to ${account.iban}`,
  });
  const form = h('form', { class: 'row' }, type, h('button', { type: 'submit' }, 'Send test event'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    mount(status, notice('info', 'Sending a test event…'));
    try {
      const { data } = await call<TestEventView>(
        `/accounts/${encodeURIComponent(account.iban)}/test-events`,
        {
          method: 'POST',
          body: { type: type.value.trim() },
        },
      );
      const { response_status: code, response_body: answer, response_time: ms } = data.delivery;
      const what = `Test event ${data.type} v${data.version} (${data.example})`;
      mount(
        status,
        code >= 200 && code < 300
          ? notice('ok', `${what}: the receiver answered ${code} in ${ms} ms.`)
          : notice(
              'error',
              `${what}: ${code === 0 ? 'no answer' : `the receiver answered ${code}`} after ${ms} ms.`,
            ),
        answer ? h('pre', { class: 'wrap', 'aria-label': 'Receiver answer' }, answer) : null,
      );
    } catch (error) {
      mount(status, notice('error', describe(error, 'Sending a test event')));
    }
  });
  return form;
}
