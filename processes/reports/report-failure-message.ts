import { ReportBudgetExceededError } from './report-pool.ts';

/** The Debian package the PDF fonts come from: named by MissingFontsError's message (infra/reports/pdf.ts). */
const FONTS_PACKAGE = 'fonts-noto-core';

/**
 * What a failed report run tells the API client (`error.message` of `generation_failed`): the reasons it can act on
 * or pass on (the time budget, the server's missing PDF fonts) in their own words, and for anything else a message
 * that names the run, never the error's own text. An unexpected failure's text can hold the server's paths or
 * internal values (a range past 9999 failed with "not a date: +010000-01"); the log keeps it whole. Errors from the
 * report threads arrive without their class (a worker's error is cloned as a plain Error), hence the fonts check
 * on the message.
 */
export function reportFailureMessage(error: unknown, runId: string): string {
  if (error instanceof ReportBudgetExceededError) return error.message;
  if (error instanceof Error && error.message.includes(FONTS_PACKAGE)) {
    return `PDF reports cannot be made on this server: the fonts of the Debian package ${FONTS_PACKAGE} are missing (the service's log names the file); JSON and CSV reports still work.`;
  }
  return `The report could not be generated; the service's log has the details (run ${runId}).`;
}
