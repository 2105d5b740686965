// The Undo offered after a review flag is dismissed: a toast action that asks the engine to put
// the flags back with their causes. The engine refuses once the partition changed since.
import { useCallback } from 'react';
import { useMutation } from '../api/hooks';
import { plural } from '../ui/format';
import { useToast, type ToastAction } from '../ui/Toast';

/** Returns the toast action for a dismissal's audit id (none when nothing was dismissed). */
export function useUndoDismiss(partitionId: number | null): (auditId: number | null) => ToastAction | undefined {
  const undo = useMutation('review.undoDismiss');
  const toast = useToast();
  return useCallback(
    (auditId) => {
      if (auditId === null || partitionId === null) return undefined;
      return {
        label: 'Undo',
        run: () =>
          void undo.mutate({ partitionId, auditId }).then(
            (r) => toast(`Restored ${plural(r.restored.length, 'review flag')}`),
            (e: unknown) => toast(`Could not undo: ${e instanceof Error ? e.message : String(e)}`, 'error'),
          ),
      };
    },
    [undo, partitionId, toast],
  );
}
