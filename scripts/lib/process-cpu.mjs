// CPU time of processes from /proc (Linux), so a benchmark can say which process a request's time went to.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVICES } from './system.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Seconds of CPU (user + system) a process has used; 0 when it is gone or /proc is not there. */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Seconds of CPU the whole machine has been busy (all cores: /proc/stat's time but idle and iowait); 0 without /proc. */
export function machineBusySeconds() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
    return (total - fields[3] - fields[4]) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Ids of the processes with this exact name (every PostgreSQL backend, say); none when pgrep finds none. */
export function pidsNamed(name) {
  try {
    return execFileSync('pgrep', ['-x', name]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Starts counting the CPU of named groups of processes (`[[label, () => pids]]`); `stop(requests)` answers each group's
 * share of a core and microseconds per request over the time between. The pids are asked again at the end, and a
 * process that started meanwhile (a PostgreSQL backend a pool opened under load) counts all its CPU. Shared servers
 * (PostgreSQL, NATS, Redis) count whatever else they served meanwhile too.
 */
export function countCpu(groups) {
  const snapshot = () => groups.map(([, pids]) => new Map(pids().map((pid) => [pid, cpuSeconds(pid)])));
  const before = snapshot();
  const started = Date.now();
  return {
    stop(requests) {
      const seconds = (Date.now() - started) / 1000;
      const after = snapshot();
      return groups.map(([label], i) => {
        let cpu = 0;
        for (const [pid, used] of after[i]) cpu += used - (before[i].get(pid) ?? 0);
        return { label, core: cpu / seconds, perRequestUs: requests > 0 ? (cpu / requests) * 1e6 : 0 };
      });
    },
  };
}

/**
 * Where a storm's CPU goes on a system startSystem started: its gateway, each of its services, the machine's shared
 * servers (NATS, Redis, PostgreSQL: whatever else they serve meanwhile counts too) and this process, the load generator.
 */
export function systemCpuGroups(system) {
  return [
    ['gateway', () => [system.children[SERVICES.length].pid]],
    ...SERVICES.map(([name], i) => [name, () => [system.children[i].pid]]),
    ['NATS', () => pidsNamed('nats-server')],
    ['Redis', () => pidsNamed('redis-server')],
    ['PostgreSQL', () => pidsNamed('postgres')],
    ['load generator', () => [process.pid]],
  ];
}
