// Files embedded with import attributes (src/notify/pwa-routes.ts): `type: 'file'` gives a path
// that Bun.file can read (also inside the compiled executable), `type: 'text'` the contents.
declare module '*.png' {
  const path: string
  export default path
}
declare module '*.svg' {
  const path: string
  export default path
}
declare module '*/sw.js' {
  const source: string
  export default source
}
