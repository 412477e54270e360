import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A table's horizontal scroller. When the table is wider than the screen, a line above
 * it says so and the cut edge fades, until the user has scrolled to the end: on a phone
 * a table showing two columns otherwise gives no hint that there are more.
 */
export function TableScroll({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState<{ overflows: boolean; atEnd: boolean }>({ overflows: false, atEnd: true });

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const overflows = el.scrollWidth > el.clientWidth + 1;
      const atEnd = el.scrollLeft + el.clientWidth >= el.scrollWidth - 1;
      setMore((m) => (m.overflows === overflows && m.atEnd === atEnd ? m : { overflows, atEnd }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    el.addEventListener('scroll', measure, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener('scroll', measure);
    };
  }, []);

  return (
    <>
      {more.overflows && (
        <p className="scroll-hint" data-testid="scroll-hint">
          More columns: scroll sideways <span aria-hidden="true">→</span>
        </p>
      )}
      <div ref={box} className={`table-scroll${more.overflows && !more.atEnd ? ' table-scroll-more' : ''}`}>
        {children}
      </div>
    </>
  );
}
