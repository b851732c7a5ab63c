import type { DialOutcome } from '../port.ts';

/**
 * What a SIP final response to our INVITE means for the call (docs/telephony.md, "Outcomes"). A pure function of
 * the status code, so the table in the docs and this code are checked against each other by a unit test.
 *
 * `busy` and `no_answer` become a completed call with disposition `not_reachable`, retried while attempts remain;
 * `invalid_number` a failed call that is not retried; `carrier_error` a failed call retried per policy.
 * 401/407 are answered with credentials once by the user agent; a second challenge lands here as `carrier_error`.
 */
export function outcomeOfFinalResponse(status: number): Exclude<DialOutcome, 'answered'> | 'answered' {
  if (status >= 200 && status < 300) return 'answered';
  switch (status) {
    case 486: // Busy Here
    case 600: // Busy Everywhere
    case 603: // Decline: the person refused this call; the number is fine, try again later
      return 'busy';
    case 480: // Temporarily Unavailable (switched off, out of coverage)
    case 408: // Request Timeout (nobody answered within the network's timer)
    case 487: // Request Terminated: our own CANCEL on ring timeout
      return 'no_answer';
    case 404: // Not Found
    case 484: // Address Incomplete
    case 604: // Does Not Exist Anywhere
      return 'invalid_number';
    default:
      // 3xx (redirects are not followed), 401/407 after our one retry, 403, other 4xx, 5xx and other 6xx.
      return 'carrier_error';
  }
}
