// Help & FAQ (spec §2): three questions, then the Contact Us form (subject + message, both
// required after trimming: 'Missing Information'; ContactForm), posted to POST /api/contact.
import { dealsName } from '../state'
import { ContactForm } from './ContactForm'
import { Modal } from './Modal'

/** The questions and answers (a function: the deals forum's name comes with the server's config). */
export const helpFaq = (): [string, string][] => [
  [
    'How do search terms work?',
    'Save words you are looking for, like "glock 19". A new post matches when its title or text contains all of them. Use quotes for an exact phrase, -word to exclude, trij* for a prefix, a | b for either, and <$500 for a price bound.',
  ],
  [
    'How quickly will I see matches?',
    'New posts are checked roughly every 1 to 2 minutes; matches appear here live, and by email or push if you turned those on.',
  ],
  ['How many search terms can I save?', `Up to 10 per category on every plan (WTS, WTB and ${dealsName()} each have their own list).`],
]

export function HelpModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal onClose={onClose} aria-labelledby="help-title">
      <article>
        <header>
          <button type="button" aria-label="Close" rel="prev" className="close-x" onClick={onClose} />
          <h3 id="help-title">Help &amp; FAQ</h3>
        </header>
        {helpFaq().map(([q, a]) => (
          <details key={q}>
            <summary>{q}</summary>
            <p>{a}</p>
          </details>
        ))}
        <h4>Contact Us</h4>
        <ContactForm />
      </article>
    </Modal>
  )
}
