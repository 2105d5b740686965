// Labelled form controls: every input has a visible or accessible label.
import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

export function TextField({ label, hideLabel, className, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: string; hideLabel?: boolean }) {
  const id = useId();
  return (
    <label className={`field ${className ?? ''}`} htmlFor={id}>
      <span className={hideLabel ? 'sr-only' : 'field-label'}>{label}</span>
      <input id={id} className="input" {...rest} />
    </label>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  hideLabel,
  className,
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <label className={`field ${className ?? ''}`} htmlFor={id}>
      <span className={hideLabel ? 'sr-only' : 'field-label'}>{label}</span>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value as T)} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'type'> & { label: ReactNode; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} {...rest} />
      <span>{label}</span>
    </label>
  );
}

/** A group of toggle chips for a multi-valued enum filter; none pressed means "any". */
export function ChipGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: readonly T[];
  onChange: (value: T[]) => void;
}) {
  return (
    <fieldset className="chips">
      <legend>{legend}</legend>
      {options.map((o) => {
        const on = value.includes(o.value);
        return (
          <button
            key={o.value}
            type="button"
            className="chip"
            aria-pressed={on}
            onClick={() => onChange(on ? value.filter((v) => v !== o.value) : [...value, o.value])}
          >
            {o.label}
          </button>
        );
      })}
    </fieldset>
  );
}

export type TriValue = 'any' | 'yes' | 'no';
export const triToBool = (v: TriValue): boolean | undefined => (v === 'any' ? undefined : v === 'yes');
export const boolToTri = (v: boolean | undefined): TriValue => (v === undefined ? 'any' : v ? 'yes' : 'no');

/** Any / yes / no as one select (boolean filters). */
export function TriSelect({ label, value, onChange }: { label: string; value: boolean | undefined; onChange: (v: boolean | undefined) => void }) {
  return (
    <SelectField<TriValue>
      label={label}
      value={boolToTri(value)}
      onChange={(v) => onChange(triToBool(v))}
      options={[
        { value: 'any', label: 'any' },
        { value: 'yes', label: 'yes' },
        { value: 'no', label: 'no' },
      ]}
    />
  );
}
