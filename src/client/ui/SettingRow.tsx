import { useId } from 'react';
import './setting.css';

type Props = {
  name?: string;
  label: string;
  subtitle: string;
  on: boolean;
  /** A save is under way: the switch ignores clicks but keeps the keyboard focus. */
  busy: boolean;
  onChange: (on: boolean) => void;
};

/** One on/off setting: its label and one-line explanation on the left, a switch on the right. */
export function SettingRow(props: Props) {
  const id = useId();
  return (
    <li className="setting-row">
      <label htmlFor={id} className="setting-text">
        <span className="setting-label" id={`${id}-label`}>
          {props.label}
        </span>
        <span className="setting-subtitle" id={`${id}-sub`}>
          {props.subtitle}
        </span>
      </label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        name={props.name}
        checked={props.on}
        // Not `disabled`: that would drop the keyboard focus while the save runs.
        aria-disabled={props.busy}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-sub`}
        onChange={(e) => {
          if (!props.busy) props.onChange(e.target.checked);
        }}
      />
    </li>
  );
}
