export function html(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

export function attr(text: string): string {
  return html(text).replace(/"/g, "&quot;");
}
