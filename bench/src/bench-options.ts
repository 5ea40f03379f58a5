import { Command, InvalidArgumentError } from 'commander';

/** A number of zero or more (`--warmup 0` turns the warm-up off). */
export const positive = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('a positive number');
  return n;
};

/** A whole number of one or more. */
export const count = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number of 1 or more');
  return n;
};

/** The options of the load both `bench` and `bench:compare` generate, with the same meaning. */
export function withLoadOptions(
  command: Command,
  rounds: { help: string; default: number },
): Command {
  return command
    .option('--duration <s>', 'seconds of load per server, route and round', positive, 1)
    .option('--connections <n>', 'concurrent connections', positive, 50)
    .option('--warmup <s>', 'seconds of warm-up per server and route (0: none)', positive, 2)
    .option('--rounds <n>', rounds.help, positive, rounds.default);
}
