import { renderStatic, visibleText } from '../../testing/static-render';
import { NO_UNDO_TOKEN, UndoEmailChangePage } from './UndoEmailChangePage';

describe('UndoEmailChangePage (ADR 0034)', () => {
  it('explains what undoing does and waits for a press: nothing is sent on load', () => {
    const sent = jest.spyOn(globalThis, 'fetch');
    try {
      const html = renderStatic(<UndoEmailChangePage />, undefined, '/undo-email-change?token=some-one-time-token');
      const page = visibleText(html);
      expect(page).toContain('Undo an email change');
      expect(page).toContain('every device logged in to it is logged out');
      expect(page).toContain('your password stops working, and you choose a new one');
      expect(html).toContain('<button type="button" class="btn btn-primary btn-block">Undo the email change</button>');
      expect(sent).not.toHaveBeenCalled();
    } finally {
      sent.mockRestore();
    }
  });

  it('says so when the link has no token, and offers support instead of the button', () => {
    const html = renderStatic(<UndoEmailChangePage />, undefined, '/undo-email-change');
    expect(visibleText(html)).toContain(NO_UNDO_TOKEN);
    expect(html).toContain('role="alert"');
    expect(html).toContain('href="/contact"');
    expect(html).not.toContain('Undo the email change</button>');
  });
});
