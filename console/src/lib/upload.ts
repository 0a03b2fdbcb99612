// A file picked for upload as the API takes it: its content in base64, its MIME type (guessed
// from the name when the browser gives none), and its size as people read it.
import { translate } from './locale.js';

export function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(typeof r.result === 'string' ? r.result.replace(/^data:[^,]*,/, '') : '');
    r.onerror = () => reject(new Error(translate('knowledge.fileUnreadable')));
    r.readAsDataURL(file);
  });
}

export function mimeOf(file: File): string {
  if (file.type) return file.type;
  if (/\.pdf$/i.test(file.name)) return 'application/pdf';
  if (/\.(md|markdown)$/i.test(file.name)) return 'text/markdown';
  return 'text/plain';
}

export const fileSize = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`;
