// Anonymous default export: its id is `lib/text/format/case.ts#default`.
export default function (text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
