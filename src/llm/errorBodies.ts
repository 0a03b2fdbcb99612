// A `fetch` for the `openai` client that puts OpenAI-compatible servers' error bodies in
// OpenAI's shape, `{"error": {"message", "type", "param", "code"}}`. vLLM before 0.10 answers
// `{"object":"error","message":…}` and FastAPI routes `{"detail":…}` at the top level; the
// client reads those as a body-less error ("400 status code (no body)"), losing the message
// that says, for one, that the model takes no tools. Only error answers are read here.
type Fetch = typeof fetch;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body in OpenAI's shape, or undefined when it already is (or is no JSON object). */
function reshaped(body: unknown): unknown {
  if (!isRecord(body) || 'error' in body) return undefined;
  const message =
    typeof body.message === 'string' ? body.message : typeof body.detail === 'string' ? body.detail : undefined;
  if (message === undefined) return undefined;
  const type = typeof body.type === 'string' ? body.type : null;
  const code = typeof body.code === 'string' || typeof body.code === 'number' ? String(body.code) : null;
  return { error: { message, type, param: null, code } };
}

export function openAiShapedErrors(inner: Fetch = fetch): Fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return res;
    const text = await res.text();
    let fixed: unknown;
    try {
      fixed = reshaped(JSON.parse(text));
    } catch {
      fixed = undefined;
    }
    const headers = new Headers(res.headers);
    // The body below is text already decoded: its old length and encoding no longer apply.
    headers.delete('content-length');
    headers.delete('content-encoding');
    const body = fixed === undefined ? text : JSON.stringify(fixed);
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}
