// The conversation turn behind a review flag: where it was said, by whom, what it said and the
// change cue the engine found in it. The turn's text is memory text: rendered only as text.
import type { TurnCause } from '../../shared/inspect';

export function TurnCauseText({ turn }: { turn: TurnCause }) {
  const where = `turn ${turn.turnIndex ?? '?'}${turn.sessionId ? ` of session ${turn.sessionId}` : ''}`;
  return (
    <span className="turn-cause">
      conversation {where}
      {turn.speaker ? <span> ({turn.speaker})</span> : null}
      {turn.text !== null ? (
        <>
          : “<span className="memory-text">{turn.text.length > 300 ? `${turn.text.slice(0, 300)}…` : turn.text}</span>”
        </>
      ) : (
        <span className="faint"> (no longer in the working set)</span>
      )}
      {turn.cue ? (
        <span className="muted">
          {' '}
          — change cue “<span className="memory-text">{turn.cue}</span>”
        </span>
      ) : null}
    </span>
  );
}
