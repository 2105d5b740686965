// Short notices (copied, deleted, failed) announced to screen readers through a live region;
// a notice may carry one action (Undo), and then stays long enough to reach it by keyboard.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

interface Toast {
  readonly id: number;
  readonly text: string;
  readonly kind: 'info' | 'error';
  readonly action?: ToastAction | undefined;
}

/** A button in the notice; pressing it runs `run` and closes the notice. */
export interface ToastAction {
  readonly label: string;
  readonly run: () => void;
}

type PushToast = (text: string, kind?: 'info' | 'error', action?: ToastAction) => void;
const ToastContext = createContext<PushToast>(() => {});
/** How long a notice with an action stays: long enough to notice it and reach its button. */
const ACTION_TOAST_MS = 15_000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const close = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const push = useCallback<PushToast>(
    (text, kind = 'info', action) => {
      const id = next.current++;
      setToasts((t) => [...t.slice(-3), { id, text, kind, action }]);
      setTimeout(() => close(id), action ? ACTION_TOAST_MS : kind === 'error' ? 8000 : 3500);
    },
    [close],
  );
  const value = useMemo(() => push, [push]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast ${t.kind === 'error' ? 'toast-error' : ''}`}>
            {t.text}
            {t.action ? (
              <button
                type="button"
                className="link-button toast-action"
                onClick={() => {
                  close(t.id);
                  t.action?.run();
                }}
              >
                {t.action.label}
              </button>
            ) : null}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): PushToast {
  return useContext(ToastContext);
}
