import type { DisplayValue } from '../../shared/schemas/coins';
import { displayClass, displayText } from './display';

/** One display object as text, coloured green/red and bold when it is the figure to notice. */
export function Figure({ value }: { value: DisplayValue }) {
  return <span className={displayClass(value)}>{displayText(value)}</span>;
}
