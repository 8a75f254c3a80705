// The spec's refusals and the pause's answer, shared by the pages that start a scan (Logs: Force
// run; Tools: Run scraper now, batch matching).
export const SCRAPER_DENIED = 'You do not have permission to trigger the scraper. Only admins can perform this action.'
export const BATCH_DENIED = 'You do not have permission to run batch matching. Only admins can perform this action.'
export const PAUSED_MESSAGE = 'The emergency pause is on: scanning and matching are stopped until it is switched off.'
