import { constants } from 'node:os';

/** Ctrl-C, and what `kill`, Docker and systemd send to stop a process. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Runs `work` with an AbortSignal that the first SIGINT or SIGTERM aborts (its reason is the
 * signal's name), instead of letting the signal end the process on the spot, in the middle of
 * whatever it was doing. A second signal ends the process at once, as usual: its handler is gone.
 */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    forget();
    controller.abort(signal);
  };
  const forget = () => STOP_SIGNALS.forEach((signal) => process.removeListener(signal, stop));
  STOP_SIGNALS.forEach((signal) => process.on(signal, stop));
  try {
    return await work(controller.signal);
  } finally {
    forget();
  }
}

/** The exit code of a command stopped by `signal`, as shells report it: 130 for SIGINT, 143 for SIGTERM. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}
