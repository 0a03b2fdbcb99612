// A log that follows its newest entry (the chat), unless the operator scrolled up to read.
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

/** How close to the bottom still counts as "at the bottom" (a bubble's margin, rounding). */
const SLACK_PX = 48;

/** Attach the ref to the scrolling element; `change` is anything that differs when content grows. */
export function useFollowNewest<E extends HTMLElement>(change: unknown): RefObject<E | null> {
  const ref = useRef<E | null>(null);
  const following = useRef(true);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const on = () => {
      following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= SLACK_PX;
    };
    el.addEventListener('scroll', on, { passive: true });
    return () => el.removeEventListener('scroll', on);
  }, [ref.current]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [change, ref.current]);
  return ref;
}
