// A date-time field in the app's one 24-hour format ("2025-01-06 09:00", UTC), rather than the
// browser's locale-dependent picker. What is typed stays as typed while it is being edited; each
// readable time is passed on at once, unreadable text is marked and says what is expected.
import { useEffect, useId, useRef, useState, type InputHTMLAttributes } from 'react';
import { inputTextToIso, isoToInputText } from './format';

export const DATE_TIME_HINT = 'YYYY-MM-DD HH:MM (24-hour, UTC)';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  /** An ISO instant, or null / undefined for none. */
  value: string | null | undefined;
  /** A readable time (ISO), or undefined when the field was emptied. */
  onChange: (iso: string | undefined) => void;
};

export function DateTimeInput({ value, onChange, className, onBlur, ...rest }: InputProps) {
  const [text, setText] = useState(() => isoToInputText(value));
  const editing = useRef(false);
  // A value changed elsewhere (the scrubber, Now, a link) shows here unless the user is typing it.
  // Only a new value resets the text (the text typed so far is read, not watched).
  useEffect(() => {
    if (!editing.current || inputTextToIso(text) !== (value ?? undefined)) setText(isoToInputText(value));
  }, [value]);
  const invalid = text.trim() !== '' && inputTextToIso(text) === undefined;
  return (
    <input
      {...rest}
      className={`input input-datetime${className ? ` ${className}` : ''}`}
      type="text"
      inputMode="numeric"
      spellCheck={false}
      autoComplete="off"
      placeholder="YYYY-MM-DD HH:MM"
      value={text}
      aria-invalid={invalid || undefined}
      title={invalid ? `Not a time: type ${DATE_TIME_HINT}` : DATE_TIME_HINT}
      onFocus={() => {
        editing.current = true;
      }}
      onBlur={(e) => {
        editing.current = false;
        // Leaving the field shows the time as the app writes it.
        const iso = inputTextToIso(text);
        if (iso) setText(isoToInputText(iso));
        onBlur?.(e);
      }}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        if (next.trim() === '') onChange(undefined);
        else {
          const iso = inputTextToIso(next);
          if (iso) onChange(iso);
        }
      }}
    />
  );
}

export function DateTimeField({ label, className, ...rest }: InputProps & { label: string }) {
  const id = useId();
  return (
    <label className={`field ${className ?? ''}`} htmlFor={id}>
      <span className="field-label">{label}</span>
      <DateTimeInput id={id} {...rest} />
    </label>
  );
}
