// npm start: runs the whole marketplace on this machine with embedded defaults (DESIGN §2).
import { startSystem } from './lib/system.mjs';
import { seedDemo } from './lib/seed.mjs';
import { seedFirstStart } from './lib/seed-first-start.mjs';

const log = (line) => console.log(line);

let system = null;
try {
  system = await startSystem({ log });
  const demo = process.env.SEED_DEMO === 'false' ? [] : await seedDemo(system.url, system.admin);
  if (process.env.SEED_DEMO !== 'false') await seedFirstStart(system, log);
  log('');
  log(`Site Market is running at ${system.url}`);
  log(`  API docs:  ${system.url}/api/docs`);
  log(`  Admin:     ${system.admin.email} / ${system.admin.password}`);
  for (const user of demo) log(`  Demo user: ${user.username} (${user.email}) / ${user.password}`);
  log('  Logs:      data/logs/<service>.log');
  // D25: a run on servers anyone may use says so, every time, where nobody can miss it.
  if (process.env.ALLOW_OPEN_INFRA === 'true') log('\x1b[31mALLOW_OPEN_INFRA=true: NATS and Redis may let anyone in; anyone on this network can read and write what they carry.\x1b[0m');
  log('Press Ctrl+C to stop.');
  let exiting = false;
  // Ctrl+C, SIGTERM or SIGHUP end with 0; a process that stopped on its own ends everything with 1.
  const shutdown = async (code = 0) => {
    if (exiting) return;
    exiting = true;
    log('Stopping...');
    await system.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));
  // A closed terminal stops it the same way, its containers and servers with it (ADR 0078).
  process.on('SIGHUP', () => shutdown(0));
  for (const child of system.children) {
    child.once('exit', () => {
      if (!exiting) {
        log('A process stopped; shutting the marketplace down.');
        void shutdown(1);
      }
    });
  }
} catch (error) {
  console.error(`Could not start the marketplace: ${error.message}`);
  // What did start is stopped: a failed start leaves no service running behind it.
  await system?.stop();
  process.exit(1);
}
