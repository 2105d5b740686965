// The causes a flagged fact had before its latest one (newest first): a second upstream change
// does not erase the first, so a reviewer sees everything that happened since the last review.
export function EarlierCauses({ causes }: { causes: readonly string[] }) {
  if (causes.length === 0) return null;
  return (
    <div className="earlier-causes">
      <span className="muted">Earlier {causes.length === 1 ? 'cause' : `causes (${causes.length})`}: </span>
      <ul className="list-plain" aria-label="Earlier causes">
        {causes.map((c, i) => (
          <li key={i} className="memory-text">
            {c}
          </li>
        ))}
      </ul>
    </div>
  );
}
