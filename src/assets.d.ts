// Files embedded with import attributes: `type: 'file'` gives a path that Bun.file can read (also
// inside the compiled executable), `type: 'text'` the contents (src/web/pwa.ts, src/db/migrations.ts).
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
declare module '*.sql' {
  const sql: string
  export default sql
}
declare module '*.min.js' {
  const source: string
  export default source
}
declare module '*.min.css' {
  const source: string
  export default source
}
declare module '*.txt' {
  const text: string
  export default text
}
