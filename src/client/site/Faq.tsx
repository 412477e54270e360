import { useId, useState } from 'react';
import { searchFaq, type FaqItem } from '../coins/faq';
import { ContactLink } from '../layout/support';
import '../layout/site.css';

/**
 * /faq: a searchable accordion. Without a search every answer starts closed; while
 * searching, the matches start open (the answer is usually what matched). `toggled`
 * holds the items the reader flipped from that starting state, and a new search text
 * starts over.
 */
export function Faq() {
  const [query, setQuery] = useState('');
  const [toggled, setToggled] = useState<ReadonlySet<string>>(new Set());
  const searchId = useId();
  const searching = query.trim() !== '';
  const topics = searchFaq(query);

  const onSearch = (text: string) => {
    setQuery(text);
    setToggled(new Set());
  };
  const toggle = (id: string) =>
    setToggled((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <div className="container page narrow">
      <header className="page-intro">
        <h1>Frequently asked questions</h1>
      </header>
      <div className="field">
        <label htmlFor={searchId}>Search the FAQ</label>
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => onSearch(e.target.value)}
          placeholder="e.g. refund"
        />
      </div>
      {topics.length === 0 ? (
        <p className="muted" role="status">
          No questions match “{query.trim()}”. <ContactLink>Ask us directly</ContactLink>.
        </p>
      ) : (
        topics.map((topic) => (
          <section key={topic.title} className="faq-topic" aria-label={topic.title}>
            <h2>{topic.title}</h2>
            <div className="accordion">
              {topic.items.map((item) => (
                <FaqEntry
                  key={item.id}
                  item={item}
                  open={searching !== toggled.has(item.id)}
                  onToggle={() => toggle(item.id)}
                />
              ))}
            </div>
          </section>
        ))
      )}
    </div>
  );
}

function FaqEntry({ item, open, onToggle }: { item: FaqItem; open: boolean; onToggle: () => void }) {
  const panelId = `faq-${item.id}`;
  return (
    <div className={`accordion-item${open ? ' is-open' : ''}`} data-faq={item.id}>
      <h3 className="accordion-heading">
        <button
          type="button"
          className="accordion-button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
        >
          {item.q}
        </button>
      </h3>
      <div id={panelId} className="accordion-panel" hidden={!open}>
        {item.a.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </div>
    </div>
  );
}
