// The end of a long list (a session's turns): a button that stays at the bottom of the window
// while the newest entries are out of view, and takes the operator there.
import { useEffect, useRef, useState } from 'preact/hooks';

const TEXT = { en: 'Jump to latest ↓', zh: '跳到最新 ↓' };
const lang = (): keyof typeof TEXT => (navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en');

export function JumpToLatest() {
  const end = useRef<HTMLDivElement>(null);
  const [away, setAway] = useState(false);
  useEffect(() => {
    const el = end.current;
    if (!el) return;
    const seen = new IntersectionObserver(([e]) => setAway(!!e && !e.isIntersecting));
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return (
    <>
      {away && (
        <button
          type="button"
          class="small jump-latest"
          data-testid="jump-latest"
          onClick={() => end.current?.scrollIntoView({ block: 'end' })}
        >
          {TEXT[lang()]}
        </button>
      )}
      <div ref={end} data-testid="latest-end" />
    </>
  );
}
