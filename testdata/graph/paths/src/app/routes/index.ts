// "@app/routes": the first fallback names a directory; index probing finds routes/index.ts.
export default (path: string): string => `/api/${path}`; // anonymous default arrow: id #default
