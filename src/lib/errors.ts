// A few error classes carry a code, an HTTP status and a public message; the private cause
// stays in the log. src/app.ts maps them once to {error: {code, message}}.
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly cause?: unknown,
  ) {
    super(message)
    this.name = 'AppError'
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST', details?: Record<string, unknown>) => new AppError(400, code, message, details)
export const unauthorized = (message = 'Please sign in to continue.', code = 'UNAUTHORIZED') => new AppError(401, code, message)
export const forbidden = (message = 'You do not have permission to do this.', code = 'FORBIDDEN') => new AppError(403, code, message)
export const notFound = (message = 'Not found.', code = 'NOT_FOUND') => new AppError(404, code, message)
export const conflict = (message: string, code = 'CONFLICT', details?: Record<string, unknown>) => new AppError(409, code, message, details)
export const tooMany = (message: string, retryAfterSeconds: number) => new AppError(429, 'RATE_LIMITED', message, { retryAfter: retryAfterSeconds })
export const unavailable = (message: string, code = 'UNAVAILABLE') => new AppError(503, code, message)

export type ErrorBody = { error: { code: string; message: string; title?: string; [k: string]: unknown } }

export function errorBody(code: string, message: string, extra?: Record<string, unknown>): ErrorBody {
  return { error: { code, message, ...extra } }
}
