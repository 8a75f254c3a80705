// A route whose capability has not landed yet still resolves and says what it will be.
import { TopBar } from '../components/TopBar'

export function Placeholder({ title }: { title: string }) {
  return (
    <>
      <TopBar />
      <main className="container">
        <h1>{title}</h1>
      </main>
    </>
  )
}
