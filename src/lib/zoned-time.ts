// One way to write a moment for people, in one named time zone: "Nov 24, 10:02:05 (Europe/Berlin)".
// Pure Intl, shared by the server's delivery explanations and the browser's /why page, so every time
// of one answer reads in the same zone (issue 30 §5).

export function formatTime(ms: number, timeZone: string): string {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  })
  return `${f.format(new Date(ms))} (${timeZone})`
}
