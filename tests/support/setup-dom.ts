import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = () => {};

// jsdom has no object URLs; a picture preview only needs a distinct string.
let objectUrls = 0;
URL.createObjectURL ??= () => `blob:preview-${(objectUrls += 1)}`;
URL.revokeObjectURL ??= () => {};

// Lazy pages load their chunks on first render; allow for a busy CI machine.
configure({ asyncUtilTimeout: 5000 });

// jsdom has <dialog> but neither showModal() nor close(): open and close it by its attribute, with `close`
// a task later as browsers send it. No top layer, inertness or focus here: the e2e tests check those.
HTMLDialogElement.prototype.showModal ??= function showModal(this: HTMLDialogElement) {
  this.setAttribute('open', '');
};
HTMLDialogElement.prototype.close ??= function close(this: HTMLDialogElement) {
  if (!this.open) return;
  this.removeAttribute('open');
  setTimeout(() => this.dispatchEvent(new Event('close')));
};
