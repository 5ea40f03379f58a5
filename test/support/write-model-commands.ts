import fc from 'fast-check';
import { planRevert } from './write-model';
import { check, checkAsOf } from './write-model-check';
import { resolve } from './write-model-ops';
import { Figures, Model, Spec, pickFrom } from './write-model-specs';
import { Client, Real } from './write-model-system';

/*
 * The commands of the model-based test of the write paths: each is resolved against the model
 * when it runs (which record, which instant), done on the system, played on the model, then
 * checked (write-model-check.ts).
 */

const describe = (spec: Spec): string => {
  const { t, ...rest } = spec;
  return `${t}(${JSON.stringify(rest)})`;
};

/** One write, or several done at once (`delayMs` apart). */
export class WriteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly specs: Spec[],
    readonly delays: number[] = [],
  ) {}

  /**
   * Not a bulk write by a client with a revert of that client: the revert could remove the new
   * records before the model knows their ids.
   */
  check(): boolean {
    const reverted = this.specs.flatMap((x) => (x.t === 'revert' ? [x.client] : []));
    return !this.specs.some((x) => x.t === 'bulk' && reverted.includes(x.client));
  }

  async run(model: Model, real: Real): Promise<void> {
    const ops = this.specs.map((spec) => resolve(model, spec));
    const observations = await Promise.all(
      ops.map(async (op, i) => {
        if (this.delays[i]) await new Promise((r) => setTimeout(r, this.delays[i]));
        return op.run(real);
      }),
    );
    await check(model, real, ops, observations);
  }

  toString(): string {
    const text = this.specs.map(describe).join(' || ');
    return this.specs.length > 1
      ? `together[${text}; delays ${JSON.stringify(this.delays)}]`
      : text;
  }
}

/**
 * `revert` of one client while another PUTs a record that revert puts back (the write lands
 * before the revert reads it, or after it wrote: either way it must stay).
 */
export class RevertRaceCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly client: Client,
    readonly other: Client,
    readonly since: number,
    readonly figures: Figures,
    readonly delayMs: number,
  ) {}

  check(): boolean {
    return this.client !== this.other;
  }

  async run(model: Model, real: Real): Promise<void> {
    const mark = model.marks[Math.min(this.since, model.marks.length - 1)];
    const plan = planRevert(model.state, this.client, mark.pos);
    const targets = [...plan.changes].filter(([id, v]) => v && model.state.store.has(id));
    const id = targets.length ? Math.max(...targets.map(([x]) => x)) : undefined;
    const specs: Spec[] = [{ t: 'revert', client: this.client, since: this.since, dryRun: false }];
    if (id !== undefined) {
      const ids = [...model.state.store.keys()].sort((a, b) => a - b);
      specs.push({
        t: 'put',
        client: this.other,
        pick: { from: 'live', n: ids.indexOf(id) },
        figures: this.figures,
        same: false,
      });
    }
    await new WriteCommand(specs, [0, this.delayMs]).run(model, real);
  }

  toString(): string {
    return `revertRace(${JSON.stringify({ client: this.client, other: this.other, since: this.since, figures: this.figures, delayMs: this.delayMs })})`;
  }
}

/** `as_of` one of the instants taken so far. */
export class AsOfCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly at: number) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    await checkAsOf(model, real, pickFrom(model.marks, this.at)!);
  }
  toString(): string {
    return `asOf(${this.at})`;
  }
}

/** After a real prune: the answers at and after its horizon, and a 400 before it. */
export class PruneCommand extends WriteCommand {
  override async run(model: Model, real: Real): Promise<void> {
    await super.run(model, real);
    const horizon = model.state.horizon;
    if (!horizon) return;
    const at = model.marks.findIndex((mk) => mk.pos === horizon.pos);
    for (const mark of [
      model.marks[at - 1],
      model.marks[at],
      model.marks[model.marks.length - 1],
    ]) {
      if (mark) await checkAsOf(model, real, mark);
    }
  }
}
