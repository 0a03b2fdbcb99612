// The name a person asked to be called (seed 003's persona card: "the display name or a name the
// user told us"), read from what they said ("以后叫我阿明就好", "call me Ming") or from a memory
// extraction wrote ("用户希望被称为阿明", "User prefers to be called Ming"). Pure.

const NAME = String.raw`[\p{Script=Han}A-Za-z][\p{Script=Han}A-Za-z0-9·'-]{0,11}?`;
const OPEN = String.raw`[“"「『']?`;
const CLOSE = String.raw`[”"」』']?`;
// What may follow the name: a particle, punctuation, or the end.
const END = String.raw`(?=就好|就行|就可以|好了|吧|啦|哦|呀|嘛|呢|[，,。.！!？?；;～~\s]|$)`;

const PATTERNS: readonly RegExp[] = [
  // The person speaking: 叫我阿明 / 称呼我为阿明 / 喊我阿明 / 你可以叫我阿明.
  new RegExp(String.raw`(?:叫我|称呼我为|称呼我|喊我)${OPEN}(${NAME})${CLOSE}${END}`, 'u'),
  // A memory about them: 希望被称为阿明 / 想被叫作阿明 / 大家叫他阿明.
  new RegExp(String.raw`(?:希望|想|喜欢|要求)?被(?:称为|称呼为|叫作|叫做|叫)${OPEN}(${NAME})${CLOSE}${END}`, 'u'),
  new RegExp(
    String.raw`(?:希望|想|喜欢|要求)(?:别人|大家|你|我们)?(?:叫他|叫她|称呼他为|称呼她为|称呼他|称呼她)${OPEN}(${NAME})${CLOSE}${END}`,
    'u',
  ),
  // Case matters for the name only: "call me Ann", never "call me tomorrow".
  /\b(?:[Cc]all me|(?:[Pp]refers?|[Ww]ants?|[Ll]ikes?|[Aa]sk(?:s|ed)?) to be called|[Gg]o(?:es)? by)\s+["'“]?(\p{Lu}[\p{L}'-]{0,19})/u,
];

/** The name in one text, if it asks for one. */
export function calledNameIn(text: string): string | undefined {
  for (const p of PATTERNS) {
    const m = p.exec(text);
    const name = m?.[1]?.trim();
    if (name && !NOT_NAMES.has(name.toLowerCase())) return name;
  }
  return undefined;
}

/** The latest request among texts in time order (a later "call me X" replaces an earlier one). */
export function latestCalledName(texts: readonly string[]): string | undefined {
  for (let i = texts.length - 1; i >= 0; i--) {
    const name = calledNameIn(texts[i]!);
    if (name) return name;
  }
  return undefined;
}

/** Every name asked for in these texts (the persona check drops sentences naming any of them). */
export function calledNames(texts: readonly string[]): string[] {
  return [...new Set(texts.flatMap((t) => calledNameIn(t) ?? []))];
}

// Words that follow "叫我" / "call me" without being a name.
const NOT_NAMES = new Set([
  ...['什么', '啥', '一声', '起床', '吃饭', '出来', '出去', '回家', '一起', '过去', '过来', '上班', '下班', '睡觉'],
  ...['去', '来', '起', '走', '玩', '看'],
]);
