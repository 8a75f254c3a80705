// 'Import / export terms' in the search-terms dialog (issue 28 §3). Export downloads every term of every
// category (GET /api/terms/export, JSON or CSV). Import reads a file, asks the server for a preview
// (POST /api/terms/import?dryRun=1): a table of what will be added, what is a duplicate and what is
// refused and why; 'Apply' sends the same file without dryRun (one transaction) and reloads the terms.
import { useRef, useState } from 'react'
import { isCategory, type Category } from '../../src/access/categories'
import type { ImportResult, ImportRow } from '../../src/terms/transfer'
import { api, ApiError, send, type Answer } from '../client'
import { categoryLabel, loadTerms, termsVersion } from '../terms'
import { toast } from '../toast'

const STATUS: Record<ImportRow['status'], string> = { add: 'Will be added', duplicate: 'Duplicate', refused: 'Refused' }

type Loaded = { name: string; text: string; format: 'json' | 'csv' }

function sendImport(file: Loaded, dryRun: boolean) {
  // The file goes as it is (text/csv or JSON text), which Eden cannot send: send(), typed by the route.
  return send<Answer<typeof api.terms.import.post>>(`/api/terms/import?format=${file.format}${dryRun ? '&dryRun=1' : ''}`, {
    method: 'POST',
    headers: { 'content-type': file.format === 'csv' ? 'text/csv' : 'application/json' },
    body: file.text,
  })
}

export function TermsTransfer() {
  const [file, setFile] = useState<Loaded | null>(null)
  const [preview, setPreview] = useState<ImportResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const reset = () => {
    setFile(null)
    setPreview(null)
    setError(null)
    if (input.current) input.current.value = ''
  }

  const choose = async (picked: File | undefined) => {
    setPreview(null)
    setError(null)
    if (!picked) return
    const text = await picked.text()
    const loaded: Loaded = { name: picked.name, text, format: /\.csv$/i.test(picked.name) || picked.type.includes('csv') ? 'csv' : 'json' }
    setFile(loaded)
    setBusy(true)
    try {
      setPreview(await sendImport(loaded, true))
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The file could not be read.')
    } finally {
      setBusy(false)
    }
  }

  const apply = async () => {
    if (!file) return
    setBusy(true)
    try {
      const r = await sendImport(file, false)
      const added = r.summary.add
      toast({ title: 'Terms imported', description: `${added} ${added === 1 ? 'term was' : 'terms were'} added.` })
      for (const c of new Set(r.rows.filter((x) => x.status === 'add').map((x) => x.category))) if (isCategory(c)) await loadTerms(c)
      termsVersion.value++
      reset()
    } catch (err) {
      toast({ title: 'Import failed', description: err instanceof ApiError ? err.message : 'Please try again.', variant: 'destructive' })
    } finally {
      setBusy(false)
    }
  }

  return (
    <details className="terms-transfer">
      <summary>Import / export terms</summary>
      <p>
        <small className="muted">Export every term of every category with its settings; import a file in the same form into any account.</small>
      </p>
      <div className="transfer-actions">
        <a href="/api/terms/export?format=json" download role="button" className="secondary outline">
          Export JSON
        </a>
        <a href="/api/terms/export?format=csv" download role="button" className="secondary outline">
          Export CSV
        </a>
      </div>
      <label>
        Import from a file (JSON or CSV)
        <input ref={input} type="file" accept=".json,.csv,application/json,text/csv" disabled={busy} onChange={(e) => void choose(e.target.files?.[0])} />
      </label>
      {busy && !preview ? <p aria-busy="true">Reading the file...</p> : null}
      {error ? (
        <p className="term-error" role="alert">
          {error}
        </p>
      ) : null}
      {preview && file ? (
        <div className="import-preview">
          <p data-testid="import-summary" role="status">
            {file.name}: {preview.summary.add} to add, {preview.summary.duplicate} {preview.summary.duplicate === 1 ? 'duplicate' : 'duplicates'},{' '}
            {preview.summary.refused} refused
          </p>
          <div className="table-scroll">
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Category</th>
                  <th scope="col">Term</th>
                  <th scope="col">Result</th>
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((r) => (
                  <tr key={r.line} data-status={r.status}>
                    <td>{r.line}</td>
                    <td>{isCategory(r.category) ? categoryLabel(r.category as Category) : r.category}</td>
                    <td>
                      <code>{r.term}</code>
                    </td>
                    <td>
                      <strong>{STATUS[r.status]}</strong>
                      {r.reason ? <> — {r.reason}</> : null}
                      {r.note ? <small className="muted"> {r.note}</small> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="transfer-actions">
            <button type="button" className="secondary" onClick={reset} disabled={busy}>
              Cancel
            </button>
            <button type="button" onClick={() => void apply()} disabled={busy || preview.summary.add === 0} aria-busy={busy}>
              Apply
            </button>
          </div>
        </div>
      ) : null}
    </details>
  )
}
