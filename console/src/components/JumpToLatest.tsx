// The end of a long list (a session's turns): a button that stays at the bottom of the window
// while the newest entries are out of view, and takes the operator there.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useI18n } from '../lib/i18n.js';

export function JumpToLatest() {
  const { t } = useI18n();
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
          {t('common.jumpToLatest')}
        </button>
      )}
      <div ref={end} data-testid="latest-end" />
    </>
  );
}
