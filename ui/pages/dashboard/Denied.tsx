export function Denied({ title, message, error }: { title: string; message: string; error?: string }) {
  return (
    <article className="denied" data-testid="access-denied">
      <h2>{title}</h2>
      <p>{message}</p>
      {error ? <p className="muted">{error}</p> : null}
    </article>
  )
}
