/** Times for people: local wall-clock time plus how far away it is ("in 28 min", "3 h ago"); --json keeps ISO. */

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** "just now", "in 28 min", "3 h ago", "2 d ago": the distance from `now` in its largest whole unit. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const delta = t - now;
  const abs = Math.abs(delta);
  if (abs < MIN) return 'just now';
  const amount = abs < HOUR ? `${Math.floor(abs / MIN)} min` : abs < DAY ? `${Math.floor(abs / HOUR)} h` : `${Math.floor(abs / DAY)} d`;
  return delta > 0 ? `in ${amount}` : `${amount} ago`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local time: "14:05" today, else "2026-11-20 14:05". */
export function localTime(iso: string, now: number = Date.now()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const today = new Date(now);
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  return sameDay ? hm : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

/** "14:05 (in 28 min)": local and relative together, as human views show a time. */
export function humanTime(iso: string, now: number = Date.now()): string {
  return `${localTime(iso, now)} (${relativeTime(iso, now)})`;
}
