// What a failed report run tells the API client: the time budget and the missing PDF fonts in their own words (the
// fonts without the server's path), anything else as a message naming the run and nothing of the error's text.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reportFailureMessage } from '../../../processes/reports/report-failure-message.ts';
import { ReportBudgetExceededError } from '../../../processes/reports/report-pool.ts';

test('the time budget keeps its message', () => {
  assert.is(reportFailureMessage(new ReportBudgetExceededError('report generation took longer than 120 s'), 'rrn_1'), 'report generation took longer than 120 s');
});

test('missing fonts (as a report thread hands the error back: a plain Error) say what is missing, not where', () => {
  const message = reportFailureMessage(new Error('PDF reports need /srv/secret-fonts/NotoSans-Regular.ttf (Debian package fonts-noto-core; scripts/setup.sh installs it)'), 'rrn_1');
  assert.match(message, /fonts-noto-core/);
  assert.not.match(message, /secret-fonts/);
});

test('any other failure names the run and none of the error\'s text', () => {
  for (const error of [new Error('SQLITE_IOERR: disk I/O error in /var/lib/calls/read.db'), new Error('not a date: +010000-01'), 'a thrown string', undefined]) {
    const message = reportFailureMessage(error, 'rrn_42');
    assert.is(message, "The report could not be generated; the service's log has the details (run rrn_42).");
  }
});

test.run();
