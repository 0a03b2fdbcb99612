// Saves text or base64 content as a file in the browser.
export function download(fileName: string, mimeType: string, content: string, base64 = false): void {
  const bytes = base64 ? Uint8Array.from(atob(content), (c) => c.charCodeAt(0)) : content;
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  const a = Object.assign(document.createElement('a'), { href: url, download: fileName });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
