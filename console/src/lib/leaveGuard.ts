// Unsaved edits are not dropped silently: while `dirty`, leaving the page in the console asks
// first (router guard), and closing or reloading the tab gets the browser's own warning.
import { useEffect, useRef } from 'preact/hooks';
import { addLeaveGuard } from './router.js';

export function useLeaveGuard(dirty: boolean, question: string): void {
  const state = useRef({ dirty, question });
  state.current = { dirty, question };
  useEffect(() => {
    const remove = addLeaveGuard(() => (state.current.dirty ? state.current.question : null));
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!state.current.dirty) return;
      e.preventDefault();
      // Older browsers show the warning only when returnValue is set.
      e.returnValue = '';
    };
    addEventListener('beforeunload', onUnload);
    return () => {
      remove();
      removeEventListener('beforeunload', onUnload);
    };
  }, []);
}
