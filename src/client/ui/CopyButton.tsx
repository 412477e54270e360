import { useEffect, useState, type RefObject } from 'react';

/** Copies through the Clipboard API, else by selecting the target's text and the old copy command. */
export function CopyButton({ text, label, target }: { text: string; label: string; target: RefObject<HTMLElement | null> }) {
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
    const el = target.current;
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
