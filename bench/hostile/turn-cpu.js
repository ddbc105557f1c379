// Preloaded into the node by bench/hostile/run.js (`--import`): the main thread's CPU time between two runs of a
// 1 ms timer, that is the CPU the event loop spent before it came back to its timers. Its max over a phase is the
// longest the loop was held, measured in CPU time: unlike the event-loop delay (wall time), it does not grow when
// a loaded machine's scheduler takes the CPU away from the node, so runs on a shared machine can be compared.
// Each second's max (ms) is appended to TURN_CPU_FILE as `<Date.now()> <max>`.
import { appendFileSync } from 'node:fs';

const file = process.env.TURN_CPU_FILE;
if (file) {
  const cpuMs = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  let last = cpuMs();
  let max = 0;
  setInterval(() => {
    const now = cpuMs();
    max = Math.max(max, now - last);
    last = now;
  }, 1).unref();
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${max.toFixed(2)}\n`);
    max = 0;
  }, 1000).unref();
}
