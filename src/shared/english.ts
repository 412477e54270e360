/**
 * Small rules of English for sentences built from catalog names, so that a label which
 * already names its kind of node ("Horizen Secure Node") or starts with a vowel ("Oxen")
 * reads right wherever it is put into a sentence.
 */

/** "Dash node", "Horizen Secure Node" (no second "node"); `plural`: "Dash nodes", "Horizen Secure Nodes". */
export function coinNode(label: string, plural = false): string {
  if (/\bnode$/i.test(label.trim())) return plural ? `${label.trim()}s` : label.trim();
  return `${label} ${plural ? 'nodes' : 'node'}`;
}

/**
 * "a Dash", "an Oxen", "an Ethereum": by the first letter, as coin names are read as words
 * ("a NIX", "a SINOVATE"); "uni…", "use…", "eu…" and "one…" start with a consonant sound.
 */
export function withArticle(phrase: string): string {
  const p = phrase.trim();
  const an = /^[aeiou]/i.test(p) && !/^(uni|use|eu|one)/i.test(p);
  return `${an ? 'an' : 'a'} ${p}`;
}

/** "1 node", "2 nodes", "1 customer owes", "3 customers owe": a count with its noun in number. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
