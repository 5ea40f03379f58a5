// First, before any other module: see the file (it keeps V8's fast path for every request).
import './runtime/keep-tick-object-alive';
import 'reflect-metadata';
import { ConfigValidationError, loadConfig } from '@app/config';
import { createApp } from './bootstrap';
import { logListening } from './logging/listening-log';
import { armShutdownDeadline } from './shutdown-deadline';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  armShutdownDeadline(config.shutdownTimeoutSeconds);
  await app.listen(config.port, config.host);
  logListening(app);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
