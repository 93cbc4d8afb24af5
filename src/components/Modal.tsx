import { useEffect, useId, useLayoutEffect, useRef, type ReactNode, type SyntheticEvent } from 'react';

type ModalProps = {
  title: string;
  role?: 'dialog' | 'alertdialog';
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
  description?: string;
  /** More of the dialog's own text that describes it (its element's id), read out with the description. */
  describedBy?: string;
  /** The ✕ in the corner; a confirmation whose own buttons close it can go without. */
  closeButton?: boolean;
};

/**
 * The last control the member activated (a click, or Enter or Space on it). A control that is disabled
 * while its dialog loads (Subscribe's "Starting...") has lost focus by the time the dialog opens.
 */
let lastActivated: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'click',
    (event) => {
      const control = event.target instanceof Element ? event.target.closest<HTMLElement>('button, a[href], [role="button"]') : null;
      if (control) lastActivated = control;
    },
    true,
  );
}

/**
 * Focus is nowhere useful: on the body, on a removed or disabled element (Chromium blurs a control it
 * disables to the body), or on `holder`, the dialog keeping it while its controls are disabled.
 */
function focusIsLost(holder?: HTMLElement): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === holder || !active.isConnected || active.matches(':disabled');
}

/** The control that is opening a dialog: the focused one, else the last one activated. */
function opener(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && !focusIsLost() ? active : lastActivated;
}

const FIELD = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/** A `data-autofocus` control (a confirmation's safe choice), else the first field, else the dialog itself. */
function initialFocus(dialog: HTMLDialogElement): HTMLElement {
  return dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog.querySelector<HTMLElement>(FIELD) ?? dialog;
}

/**
 * A modal `<dialog>` opened with showModal(): the page behind is inert, Tab stays inside, Escape asks
 * `onClose` (never while busy), and focus goes back to the control that opened it. It is open while
 * mounted: the view mounts it from the machine's state, and closing is the machine's decision.
 */
export function Modal({
  title,
  role = 'dialog',
  busy = false,
  onClose,
  children,
  description,
  describedBy,
  closeButton = true,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const openedBy = opener();
    dialog.showModal();
    initialFocus(dialog).focus();
    return () => {
      dialog.close();
      // After the commit that removes the dialog, which is also the one that enables its opener again.
      queueMicrotask(() => {
        if (openedBy?.isConnected && focusIsLost()) openedBy.focus();
      });
    };
  }, []);

  // Busy disables the dialog's buttons, which drops focus: the dialog holds it meanwhile. When the attempt
  // ends with an error inside the dialog (a declined card), focus goes to that error.
  const wasBusy = useRef(busy);
  useEffect(() => {
    const dialog = dialogRef.current;
    const settled = wasBusy.current && !busy;
    wasBusy.current = busy;
    if (!dialog?.open) return;
    const error = settled ? dialog.querySelector<HTMLElement>('[role="alert"]') : null;
    if (error) {
      error.tabIndex = -1;
      error.focus();
    } else if (focusIsLost(dialog)) {
      (busy ? dialog : initialFocus(dialog)).focus();
    }
  }, [busy]);

  // Escape: the machine decides. The browser may refuse preventDefault (a second Escape without any other
  // key or click in between); then it closes the dialog itself, and `close` below puts things right.
  const cancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (event.nativeEvent.cancelable && !busy) onClose();
  };
  const closed = () => {
    const dialog = dialogRef.current;
    // `close` comes a task later: after our own close() on unmount the ref is gone; after StrictMode's
    // second mount the dialog is open again.
    if (!dialog || dialog.open) return;
    if (busy) dialog.showModal();
    else onClose();
  };

  return (
    <dialog
      ref={dialogRef}
      role={role === 'alertdialog' ? role : undefined}
      aria-labelledby={titleId}
      aria-describedby={[description ? descriptionId : null, describedBy ?? null].filter(Boolean).join(' ') || undefined}
      aria-busy={busy}
      className="modal"
      tabIndex={-1}
      onCancel={cancel}
      onClose={closed}
    >
      <div className="modal__header">
        <h2 id={titleId}>{title}</h2>
        {closeButton && (
          <button type="button" className="modal__close" aria-label="Close" disabled={busy} onClick={onClose}>
            ✕
          </button>
        )}
      </div>
      {description && <p id={descriptionId}>{description}</p>}
      {children}
    </dialog>
  );
}
