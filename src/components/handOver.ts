/** What the app hands to the browser at a click of the member's: a file to save, text to copy or to print. */

/** Saves `text` as a download named `filename`. */
export function downloadFile({ filename, text }: { filename: string; text: string }, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the object URL is no longer needed.
  URL.revokeObjectURL(url);
}

/** Puts `text` on the clipboard; rejects where the browser refuses (no secure context, no permission). */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('No clipboard');
  await navigator.clipboard.writeText(text);
}

/** Prints `text` alone, from a hidden frame: the page around it stays off the paper. */
export function printText(text: string): void {
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.cssText = 'position:fixed;width:0;height:0;border:0;visibility:hidden';
  document.body.append(frame);
  const view = frame.contentWindow;
  if (!view) {
    frame.remove();
    return;
  }
  const pre = view.document.createElement('pre');
  pre.style.cssText = 'font:14pt/1.6 monospace;white-space:pre-wrap';
  pre.textContent = text;
  view.document.body.append(pre);
  // The frame goes once the print dialog is closed.
  view.addEventListener('afterprint', () => frame.remove());
  view.focus();
  view.print();
}
