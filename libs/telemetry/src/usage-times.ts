// The times of usage entries: read from OTLP's nanoseconds and agents' ISO timestamps, written as ISO text.

/** Epoch milliseconds of an OTLP time (nanoseconds as a decimal string); undefined when absent or zero. */
export function millisOf(nanos: string | undefined): number | undefined {
  if (nanos === undefined || nanos === '' || nanos === '0') return undefined;
  if (nanos.length > 20) return undefined;
  for (let i = 0; i < nanos.length; i++) {
    const c = nanos.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return undefined;
  }
  return nanos.length > 6 ? Number(nanos.slice(0, -6)) : 0;
}

/** An ISO time of epoch milliseconds, or of `fallback` when there are none or they are out of range. */
export function isoOf(ms: number | undefined, fallback: number): string {
  const at = Math.trunc(ms !== undefined && ms > 0 && ms < 8.64e15 ? ms : fallback);
  // The entries of an export fall in a minute or two: the minute's text is made once, the seconds added.
  const minute = Math.floor(at / 60_000);
  if (minute !== lastMinute.minute) lastMinute = { minute, text: new Date(minute * 60_000).toISOString().slice(0, -7) };
  if (lastMinute.text.length !== 17) return new Date(at).toISOString();
  const rest = at - minute * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${lastMinute.text}${seconds < 10 ? '0' : ''}${seconds}.${millis < 100 ? (millis < 10 ? '00' : '0') : ''}${millis}Z`;
}
let lastMinute = { minute: Number.NaN, text: '' };

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number the decimal digits [from, to) of `text` make; -1 when one is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

/** The milliseconds of a time in toISOString's own form (YYYY-MM-DDTHH:MM:SS.sssZ, as agents send it), NaN for any other text. */
function canonicalIsoMillis(text: string): number {
  if (text.length !== 24 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.' || text[23] !== 'Z') return Number.NaN;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hours = digits(text, 11, 13);
  const minutes = digits(text, 14, 16);
  const seconds = digits(text, 17, 19);
  const millis = digits(text, 20, 23);
  // Date.UTC reads years below 100 as 19xx: those are left to Date.parse.
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || millis < 0) return Number.NaN;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return Number.NaN;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, millis);
}

/** Epoch milliseconds of an ISO time as agents write it (event.timestamp); NaN when it is not one. */
export function parseTime(text: string | undefined): number {
  if (text === undefined) return Number.NaN;
  const canonical = canonicalIsoMillis(text);
  return Number.isNaN(canonical) ? Date.parse(text) : canonical;
}
