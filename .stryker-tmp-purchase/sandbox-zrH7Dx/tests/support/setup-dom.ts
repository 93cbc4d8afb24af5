// @ts-nocheck
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
