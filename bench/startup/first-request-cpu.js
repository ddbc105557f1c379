// Preloaded by compare-checkouts.js (`node --import`) into each `l2node start` it times: writes the main thread's CPU
// time (ms, user + system) when the process's first HTTP request arrives to the file named by
// L2NODE_FIRST_REQUEST_CPU. Exact where /proc's CPU figures count in 10 ms ticks and every thread. Builtins are
// taken with process.getBuiltinModule: their ES module facades would load modules of their own (node:fs's
// `promises`), which the start would then not pay for itself.
const http = process.getBuiltinModule('node:http');
const { writeFileSync } = process.getBuiltinModule('node:fs');

const out = process.env.L2NODE_FIRST_REQUEST_CPU;
const emit = http.Server.prototype.emit;
let written = false;
http.Server.prototype.emit = function (event, ...args) {
  if (!written && event === 'request' && out) {
    written = true;
    const cpu = process.threadCpuUsage();
    writeFileSync(out, String((cpu.user + cpu.system) / 1000));
  }
  return emit.call(this, event, ...args);
};
