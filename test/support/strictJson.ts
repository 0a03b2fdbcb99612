// A strict reading of one JSON text: JSON.parse keeps the last of two equal keys without a word,
// while strict log pipelines reject the line. This walks the text and names the first repeated
// key of any object (issue 35: log lines held `turnId` twice).

/** The first key repeated within one object, as `path.key`; undefined when there is none. Throws on invalid JSON. */
export function repeatedKey(text: string): string | undefined {
  JSON.parse(text); // valid JSON first: the walk below trusts the structure
  const stack: Array<{ keys: Set<string>; path: string } | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return `${top.path}${key}`;
        top.keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({ keys: new Set(), path: '' });
      expectKey = true;
    } else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') expectKey = stack[stack.length - 1] !== null && stack.length > 0;
  }
  return undefined;
}

/** Log lines (those starting with `{`) that are not strict JSON: invalid, or a key repeated. */
export function logLineProblems(output: string): string[] {
  const out: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const key = repeatedKey(line);
      if (key) out.push(`log line repeats "${key}": ${line.slice(0, 300)}`);
    } catch {
      out.push(`log line is not JSON: ${line.slice(0, 300)}`);
    }
  }
  return out;
}
