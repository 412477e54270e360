import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Copies through the Clipboard API, else by selecting the shown text (`target`) and the
 * old copy command. Says "Copied!" for 2 s, and tells screen readers.
 */
export function CopyButton({
  text,
  label,
  target,
}: {
  text: string;
  label: string;
  target?: RefObject<HTMLElement | null>;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
      return;
    } catch {
      // No permission or no secure context: fall back to a selection.
    }
    const el = target?.current;
    const selection = window.getSelection();
    if (el && selection) {
      const range = document.createRange();
      range.selectNodeContents(el);
      selection.removeAllRanges();
      selection.addRange(range);
      setState(document.execCommand('copy') ? 'copied' : 'failed');
    } else setState('failed');
  }

  return (
    <>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => void copy()} aria-label={label}>
        {state === 'copied' ? 'Copied!' : state === 'failed' ? 'Press Ctrl+C' : 'Copy'}
      </button>
      <span className="sr-only" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copying failed; the text is selected' : ''}
      </span>
    </>
  );
}

/** A command or line the customer copies: the text in a focusable block and its copy button. */
export function CopyBlock({ label, text }: { label: string; text: string }) {
  const pre = useRef<HTMLPreElement>(null);
  return (
    <div className="copy-block">
      <div className="copy-block-head">
        <span className="copy-block-label">{label}</span>
        <CopyButton text={text} label={`Copy ${label}`} target={pre} />
      </div>
      <pre ref={pre} className="copy-text" tabIndex={0} aria-label={label}>
        {text}
      </pre>
    </div>
  );
}
