/**
 * Copy buttons: <button data-copy="text" data-copied="Announcement">. Shown only when the Clipboard API is
 * there (their wrapper starts hidden); the result is announced through the nearest [data-copy-status].
 */
export function initCopy(signal: AbortSignal) {
  const buttons = document.querySelectorAll<HTMLButtonElement>('button[data-copy]');
  const status = document.querySelector<HTMLElement>('[data-copy-status]');
  if (!navigator.clipboard || !window.isSecureContext) return;
  for (const button of buttons) {
    button.closest<HTMLElement>('[data-copy-wrap]')?.removeAttribute('hidden');
    button.addEventListener('click', async () => {
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(button.dataset.copy ?? '');
        button.textContent = 'Copied';
        if (status) status.textContent = button.dataset.copied ?? 'Copied';
      } catch {
        if (status) status.textContent = 'Could not copy; select the address and copy it instead.';
      }
      setTimeout(() => (button.textContent = label), 2000);
    }, { signal });
  }
}
