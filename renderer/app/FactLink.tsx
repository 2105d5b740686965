// A link to a fact: a real <a href> holding the fact's address, so middle-click, "open in new tab"
// and "copy link" work in browser mode; a plain click opens the fact here without a reload.
import { useCallback, type MouseEvent, type ReactNode } from 'react';
import { formatAddress } from './address';
import { DEFAULT_FILTER, DEFAULT_HIDDEN, DEFAULT_SORT, useAppState, useDispatch, type DetailTab } from './state';

/** The address (after "#") of a fact's detail in the Memories view, at the inspected time. */
export function useFactHref(): (partitionId: number, factId: string, tab?: DetailTab) => string {
  const { asOf } = useAppState();
  return useCallback(
    (partitionId, factId, tab = 'detail') =>
      `#${formatAddress({ view: 'memories', partitionId, factId, detailTab: tab, filter: DEFAULT_FILTER, sort: DEFAULT_SORT, asOf, params: {}, hiddenColumns: new Set(DEFAULT_HIDDEN) })}`,
    [asOf],
  );
}

/** Whether a click asks the browser for something else than following the link here (a new tab
 * or window, a download). */
export function isPlainClick(e: MouseEvent): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

type AnchorProps = Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'>;

export function FactLink({
  partitionId,
  factId,
  tab,
  onOpen,
  children,
  ...rest
}: AnchorProps & {
  /** Where the fact lives; defaults to the partition being inspected. */
  partitionId?: number | null;
  factId: string;
  tab?: DetailTab;
  /** What a plain click does; defaults to opening the fact's detail in the Memories view. */
  onOpen?: () => void;
  children: ReactNode;
}) {
  const current = useAppState().partitionId;
  const dispatch = useDispatch();
  const href = useFactHref();
  const pid = partitionId ?? current;
  if (pid === null) return <span className={rest.className}>{children}</span>;
  const open = onOpen ?? (() => dispatch({ type: 'openFact', factId, view: 'memories', tab: tab ?? 'detail', partitionId: pid }));
  return (
    <a
      {...rest}
      href={href(pid, factId, tab)}
      onClick={(e) => {
        if (!isPlainClick(e)) return;
        e.preventDefault();
        open();
      }}
    >
      {children}
    </a>
  );
}
