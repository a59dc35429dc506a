import { describe, expect, it } from 'vitest';
import {
  createProgressLine,
  PROGRESS_DELAY_MS,
  PROGRESS_REFRESH_MS,
  type ProgressClock,
  type ProgressStream,
} from './cli-progress.js';

/** A clock stepped by hand: `advance` runs the ticks that fall due. */
function manualClock() {
  let now = 0;
  const ticks: { every: number; next: number; tick: () => void; live: boolean }[] = [];
  const clock: ProgressClock = {
    now: () => now,
    every(ms, tick) {
      const entry = { every: ms, next: now + ms, tick, live: true };
      ticks.push(entry);
      return () => {
        entry.live = false;
      };
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = ticks.filter((entry) => entry.live && entry.next <= end).sort((a, b) => a.next - b.next)[0];
      if (due === undefined) break;
      now = due.next;
      due.next += due.every;
      due.tick();
    }
    now = end;
  };
  return { clock, advance, live: () => ticks.filter((entry) => entry.live).length };
}

function terminal(isTTY = true, columns = 200) {
  const writes: string[] = [];
  const stream: ProgressStream = { isTTY, columns, write: (text) => writes.push(text) };
  return { stream, writes, screen: () => writes.at(-1)?.replace('\r\u001b[2K', '') ?? '' };
}

describe('the progress line', () => {
  it(`stays silent for the first ${PROGRESS_DELAY_MS} ms, then shows the stage, redrawn in place`, () => {
    const { clock, advance } = manualClock();
    const { stream, writes, screen } = terminal();
    const line = createProgressLine('fetch', stream, clock);
    line.onProgress({ stage: 'admission', origin: 'https://example.com' });
    advance(PROGRESS_DELAY_MS - 1);
    expect(writes).toEqual([]);
    advance(1);
    expect(writes.length).toBe(1);
    expect(writes[0]?.startsWith('\r\u001b[2K')).toBe(true);
    expect(screen()).toBe('mono-agent-web: fetch 2.0 s: waiting for admission to https://example.com');
    line.onProgress({ stage: 'connecting', origin: 'https://example.com', attempt: 2 });
    advance(500);
    expect(screen()).toBe(
      'mono-agent-web: fetch 2.5 s: connecting to https://example.com (attempt 2), waiting for the response',
    );
    line.onProgress({ stage: 'downloading', bytes: 1500, totalBytes: 2_400_000 });
    advance(500);
    expect(screen()).toBe('mono-agent-web: fetch 3.0 s: downloading 1.5 kB of 2.4 MB');
    line.onProgress({ stage: 'rendering' });
    advance(500);
    expect(screen()).toBe('mono-agent-web: fetch 3.5 s: rendering the page in a browser');
  });

  it('counts a retry wait down from its delay', () => {
    const { clock, advance } = manualClock();
    const { stream, screen } = terminal();
    const line = createProgressLine('fetch', stream, clock);
    advance(PROGRESS_DELAY_MS);
    line.onProgress({ stage: 'retry_wait', delayMs: 3000 });
    advance(1000);
    expect(screen()).toBe('mono-agent-web: fetch 3.0 s: waiting 3.0 s before retrying, 2.0 s left');
  });

  it('erases the line when the call ends, and stops its timer', () => {
    const { clock, advance, live } = manualClock();
    const { stream, writes } = terminal();
    const line = createProgressLine('search', stream, clock);
    line.onProgress({ stage: 'searching' });
    advance(PROGRESS_DELAY_MS + PROGRESS_REFRESH_MS);
    line.stop();
    expect(writes.at(-1)).toBe('\r\u001b[2K');
    expect(live()).toBe(0);
    const count = writes.length;
    advance(10_000);
    expect(writes.length).toBe(count);
  });

  it('writes nothing when the call ends within the delay, nor when the stream is not a terminal', () => {
    const quick = manualClock();
    const tty = terminal();
    const line = createProgressLine('fetch', tty.stream, quick.clock);
    quick.advance(PROGRESS_DELAY_MS - PROGRESS_REFRESH_MS);
    line.stop();
    expect(tty.writes).toEqual([]);
    const piped = manualClock();
    const pipe = terminal(false);
    const silent = createProgressLine('fetch', pipe.stream, piped.clock);
    silent.onProgress({ stage: 'searching' });
    piped.advance(60_000);
    silent.stop();
    expect(pipe.writes).toEqual([]);
    expect(piped.live()).toBe(0);
  });

  it('keeps to one row of a narrow terminal', () => {
    const { clock, advance } = manualClock();
    const { stream, screen } = terminal(true, 40);
    const line = createProgressLine('fetch', stream, clock);
    line.onProgress({ stage: 'admission', origin: 'https://a-very-long-host-name.example.com' });
    advance(PROGRESS_DELAY_MS + PROGRESS_REFRESH_MS);
    expect(screen().length).toBe(39);
    expect(screen().endsWith('…')).toBe(true);
  });

  it('takes a terminal that reports 0 columns (an unsized pseudo-terminal) as 80 wide', () => {
    const { clock, advance } = manualClock();
    const { stream, screen } = terminal(true, 0);
    const line = createProgressLine('fetch', stream, clock);
    line.onProgress({ stage: 'downloading', bytes: 2100, totalBytes: 4000 });
    advance(PROGRESS_DELAY_MS);
    expect(screen()).toBe('mono-agent-web: fetch 2.0 s: downloading 2.1 kB of 4.0 kB');
  });
});
