import fc from 'fast-check';
import { keyOf, planRevert } from './write-model';
import { check, checkAsOf } from './write-model-check';
import { resolve } from './write-model-ops';
import { Figures, Model, Spec, freeKeyPick, newKey, pickFrom, recordId } from './write-model-specs';
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

/** How the actor's record changes before the revert: by another client, or by a `restore`. */
export type LaterChange = 'put' | 'delete' | 'recreate';

/**
 * A revert after someone else changed one of the actor's records: the actor updates a live record
 * (or creates one), then another client updates or deletes it, or the actor deletes it and
 * `restore` brings it back; then the actor's changes since the instant before its write are
 * reverted (or planned): the record must stay as the others left it. Every run starts with one,
 * so that the few short runs of `npm test` always try it.
 */
export class RevertAfterOthersCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly actor: Client,
    readonly other: Client,
    readonly create: boolean,
    readonly later: LaterChange,
    readonly n: number,
    readonly figures: Figures,
    readonly dryRun: boolean,
  ) {}

  check(): boolean {
    return this.actor !== this.other;
  }

  async run(model: Model, real: Real): Promise<void> {
    const step = (spec: Spec) => new WriteCommand([spec]).run(model, real);
    const since = model.marks.length - 1;
    const key = this.create ? freeKeyPick(model, this.n) : undefined;
    let id: number;
    if (key) {
      await step({ t: 'post', client: this.actor, key, figures: this.figures });
      id = model.state.keys.get(keyOf(newKey(key.n)))!;
    } else {
      id = recordId(model, { from: 'live', n: this.n });
      const pick = { from: 'id' as const, n: id };
      await step({ t: 'put', client: this.actor, pick, figures: this.figures, same: false });
    }
    const pick = { from: 'id' as const, n: id };
    const figures = { ...this.figures, new_cases: this.figures.new_cases + 1 };
    const later: Spec[] = {
      put: [{ t: 'put' as const, client: this.other, pick, figures, same: false }],
      delete: [{ t: 'delete' as const, client: this.other, pick }],
      recreate: [
        { t: 'delete' as const, client: this.actor, pick },
        { t: 'restore' as const, pick },
      ],
    }[this.later];
    for (const spec of later) await step(spec);
    await step({ t: 'revert', client: this.actor, since, dryRun: this.dryRun });
  }

  toString(): string {
    const { actor, other, create, later, n, figures, dryRun } = this;
    return `revertAfterOthers(${JSON.stringify({ actor, other, create, later, n, figures, dryRun })})`;
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
