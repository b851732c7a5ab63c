/**
 * npx tsx scripts/check-zone-offsets.ts [fromYear=1970] [toYear=2040]
 *
 * Checks the assumption of the analytics rollups (projections/time-buckets.ts): every UTC offset a time zone uses
 * is a whole number of 15 minutes, so every local midnight falls on a 15-minute UTC bucket edge. For each zone ICU
 * knows (Intl.supportedValuesOf, plus the IANA names ICU spells differently, e.g. Asia/Kolkata), it samples the
 * offset every day at 00:00 and 12:00 UTC (an offset in force for under 12 hours could escape), and prints every
 * zone and period whose offset is not a multiple of 15 minutes. Queries in such a zone and period stay correct:
 * the part of a day under 15 minutes before its first bucket edge is read from the per-call facts.
 */
const fromYear = Number(process.argv[2] ?? 1970);
const toYear = Number(process.argv[3] ?? 2040);
const zones = [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Asia/Kolkata', 'Asia/Kathmandu', 'Europe/Kyiv', 'America/Nuuk'])];

function offsetSeconds(format: Intl.DateTimeFormat, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return (local - instant) / 1000;
}

function formatOffset(seconds: number): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const hh = String(Math.floor(abs / 3600)).padStart(2, '0');
  const mm = String(Math.floor((abs % 3600) / 60)).padStart(2, '0');
  const ss = abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : '';
  return `${sign}${hh}:${mm}${ss}`;
}

const start = Date.UTC(fromYear, 0, 1);
const end = Date.UTC(toYear, 0, 1);
const STEP = 12 * 3_600_000;
const exceptions: string[] = [];
const offsets = new Set<number>();
for (const zone of zones) {
  const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  let open: { offset: number; from: number; last: number } | null = null;
  const close = () => {
    if (open) exceptions.push(`${zone}: ${formatOffset(open.offset)} from ${new Date(open.from).toISOString().slice(0, 10)} (or before) to ${new Date(open.last).toISOString().slice(0, 10)} (or after)`);
    open = null;
  };
  for (let instant = start; instant < end; instant += STEP) {
    const offset = offsetSeconds(format, instant);
    offsets.add(offset);
    if (offset % 900 === 0) {
      close();
      continue;
    }
    if (open && open.offset === offset) open.last = instant;
    else {
      close();
      open = { offset, from: instant, last: instant };
    }
  }
  close();
}
console.log(`${zones.length} zones, ${fromYear}-${toYear - 1}: ${offsets.size} distinct offsets (${[...offsets].sort((a, b) => a - b).map(formatOffset).join(' ')})`);
console.log(exceptions.length === 0 ? 'every offset is a multiple of 15 minutes' : `offsets that are not a multiple of 15 minutes:\n  ${exceptions.join('\n  ')}`);
