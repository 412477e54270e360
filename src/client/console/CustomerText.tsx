import { bidiParts } from '../../shared/bidi';

/**
 * Text a customer (or visitor) typed, as the console shows it: each bidi control as its
 * visible escape (styled), so "\u202Eevil" reads "\u202eevil", not "live"; and isolated
 * (<bdi>), so right-to-left letters do not reorder the text around it.
 */
export function CustomerText({ text }: { text: string | null | undefined }) {
  if (text === null || text === undefined) return null;
  return (
    <bdi>
      {bidiParts(text).map((p, i) =>
        p.escape ? (
          <span key={i} className="bidi-escape" title="An invisible direction-changing character, shown written out">
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </bdi>
  );
}
