// Enter that sends: never the Enter that confirms an input method's candidate (Chinese, Japanese…),
// which arrives as a keydown with isComposing (keyCode 229 in Safari, which fires it after
// compositionend).
export const isComposing = (e: KeyboardEvent): boolean => e.isComposing || e.keyCode === 229;

/** Enter without Shift, outside a composition: the key that submits a message. */
export const isSendEnter = (e: KeyboardEvent): boolean => e.key === 'Enter' && !e.shiftKey && !isComposing(e);
