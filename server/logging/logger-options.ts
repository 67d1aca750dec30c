import type { FastifyLoggerOptions, PinoLoggerOptions } from 'fastify/types/logger'
import pretty from 'pino-pretty'
import type { LogFormat, LogLevel } from '../config'
import { currentRequestId } from './request-context'

/**
 * The app's pino options from LOG_LEVEL and LOG_FORMAT (docs/operations.md, "Logs"), and the level of the one line
 * each request gets (server/logging/requests.ts).
 */

export interface LoggingChoice {
  level: LogLevel
  format: LogFormat
  /** Whether standard output is a terminal (`process.stdout.isTTY`): what `auto` decides on. */
  stdoutIsTty: boolean
}

export type AppLoggerOptions = FastifyLoggerOptions & PinoLoggerOptions

/** `auto` is pretty for a person at a terminal, JSON for everything else (a service manager, a log collector). */
export function chosenFormat(format: LogFormat, stdoutIsTty: boolean): 'pretty' | 'json' {
  if (format === 'auto') return stdoutIsTty ? 'pretty' : 'json'
  return format
}

/**
 * A line logged while a request is handled carries that request's id (`reqId`), whoever logs it: `request.log`
 * binds it itself, and a service logging through the app's logger gets it from the request's context here. Lines
 * of `request.log` are left alone, so the id is never written twice.
 */
function withRequestId(_mergeObject: object, _level: number, logger: { bindings: () => Record<string, unknown> }): object {
  const reqId = currentRequestId()
  if (reqId === undefined || 'reqId' in logger.bindings()) return {}
  return { reqId }
}

/**
 * In-process pretty printing (not a worker-thread transport): nothing to start or flush at exit, and the line
 * format can be a function. One line per event: the time, the level, the request id and the message; an error's
 * stack and other fields follow on indented lines.
 */
function prettyStream() {
  return pretty({
    colorize: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // The request line's fields (`request`) are already in its message; pid and host say nothing on a terminal.
    ignore: 'pid,hostname,reqId,request',
    messageFormat: (log, messageKey) => {
      const id = typeof log.reqId === 'string' ? `${log.reqId} ` : ''
      return `${id}${String(log[messageKey] ?? '')}`
    },
  })
}

export function loggerOptions(choice: LoggingChoice): { format: 'pretty' | 'json'; options: AppLoggerOptions } {
  const format = chosenFormat(choice.format, choice.stdoutIsTty)
  const options: AppLoggerOptions = { level: choice.level, mixin: withRequestId }
  if (format === 'pretty') options.stream = prettyStream()
  return { format, options }
}

/** Health checks that monitors call every few seconds: their request lines are `debug`, or they drown the rest. */
export const HEALTH_ROUTES: ReadonlySet<string> = new Set(['/api/health', '/api/ready'])

/**
 * The level of a request's line: `warn` when it took longer than `slowMs` (0: never), else `debug` for a health
 * check and `info` for the rest.
 */
export function requestLineLevel(route: string, durationMs: number, slowMs: number): 'warn' | 'info' | 'debug' {
  if (slowMs > 0 && durationMs > slowMs) return 'warn'
  return HEALTH_ROUTES.has(route) ? 'debug' : 'info'
}
