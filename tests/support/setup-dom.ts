import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

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
